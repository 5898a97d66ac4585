import Foundation
import JWTKit
import JournalSync
import Logging

/// Sign-in with the app's own auth (SYNC.md §"Signing in with the app's own auth"): besides its own tokens, the
/// server accepts a JWT that the app's backend signed with a key of a JWKS (a file, or an `http(s)` URL that serves
/// one), whose issuer and audience are the configured ones and which has not expired. The claim `userClaim` names the
/// user; such a principal is a `.user` of that user, created as a token's user is: by the journal's first push.
public struct AppSignIn: Sendable {
    /// `serve --jwt-jwks`: a JWKS file, or an `http://` or `https://` URL that serves one.
    public var keys: String
    /// `serve --jwt-issuer`: the `iss` every JWT must carry.
    public var issuer: String
    /// `serve --jwt-audience`: a value the JWT's `aud` (a string or an array) must hold.
    public var audience: String
    /// `serve --jwt-user-claim`: the claim whose string is the user id.
    public var userClaim: String
    /// The clock skew allowed on `exp` and `nbf`.
    public var leeway: Duration = .seconds(60)
    /// The soonest a JWKS URL is fetched again for a key id it does not list (a key the backend rotated in).
    public var refetchInterval: Duration = .seconds(30)

    public static let defaultUserClaim = "sub"

    public init(keys: String, issuer: String, audience: String, userClaim: String = AppSignIn.defaultUserClaim) {
        self.keys = keys
        self.issuer = issuer
        self.audience = audience
        self.userClaim = userClaim
    }

    /// The algorithms a JWT may be signed with: public-key ones only (no `none`, no shared-secret `HS*`).
    public static let algorithms = ["ES256", "ES384", "ES512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "EdDSA"]

    /// Whether `token` has a JWT's shape (three base64url parts) rather than the server's own (`wjt_…`).
    static func isJWT(_ token: String) -> Bool {
        !token.hasPrefix("wjt_") && token.utf8.lazy.filter { $0 == UInt8(ascii: ".") }.count == 2
    }

    /// Why the keys could not be read: a file that does not read, an answer that is not a JWKS, a key refused.
    public struct Problem: Error, CustomStringConvertible {
        public var description: String
    }
}

/// Checks JWTs against an `AppSignIn`: the keys are read once (a file at start, a URL at start and again when a JWT
/// names a key id it does not list, at most once per `refetchInterval`), then each JWT is checked in memory.
actor AppTokenVerifier {
    let settings: AppSignIn
    let now: @Sendable () -> Date
    let transport: any SyncTransport
    let logger: Logger
    private var keys = JWTKeyCollection()
    private var keyIDs: [String] = []
    private var fetched: ContinuousClock.Instant?

    init(_ settings: AppSignIn, now: @escaping @Sendable () -> Date = Date.init,
         transport: any SyncTransport = SyncClient.platformTransport(), logger: Logger) {
        self.settings = settings
        self.now = now
        self.transport = transport
        self.logger = logger
    }

    var isURL: Bool { settings.keys.hasPrefix("https://") || settings.keys.hasPrefix("http://") }

    /// Reads the keys now; throws `AppSignIn.Problem` naming the source and why.
    func load() async throws {
        fetched = .now
        let json: Data
        if isURL {
            guard let url = URL(string: settings.keys) else { throw AppSignIn.Problem(description: "--jwt-jwks \(settings.keys) is not a URL") }
            let answer: (status: Int, body: Data)
            do {
                answer = try await transport.exchange(SyncClient.HTTPRequest(method: "GET", url: url, headers: [("Accept", "application/json")],
                                                                             body: nil, timeoutSeconds: 10))
            } catch {
                throw AppSignIn.Problem(description: "--jwt-jwks \(settings.keys) did not answer (\(error))")
            }
            guard answer.status == 200 else { throw AppSignIn.Problem(description: "--jwt-jwks \(settings.keys) answered HTTP \(answer.status), not 200 with a JWKS") }
            json = answer.body
        } else {
            do { json = try Data(contentsOf: URL(fileURLWithPath: settings.keys)) } catch {
                let reason = FileManager.default.fileExists(atPath: settings.keys) ? (error as NSError).localizedDescription : "no such file"
                throw AppSignIn.Problem(description: "--jwt-jwks \(settings.keys) is not a readable file (\(reason)); give a JWKS file or an https:// URL that serves one")
            }
        }
        let (collection, ids) = try await Self.keys(fromJWKS: json, source: settings.keys)
        keys = collection
        keyIDs = ids
    }

    /// Reads `load`'s keys, logging why not: a URL that does not answer now is fetched again when a JWT comes.
    func loadLogging() async {
        do { try await load() } catch { logger.warning("sign-in with the app's JWTs: \(error); fetched again when a JWT comes") }
    }

    /// The public keys of a JWKS (`{"keys":[{"kty":…,"kid":…,…}]}`): each needs a `kid` and a public-key type (EC,
    /// RSA, OKP); a shared secret (`oct`) is refused.
    static func keys(fromJWKS json: Data, source: String) async throws -> (JWTKeyCollection, [String]) {
        guard let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any], let list = object["keys"] as? [[String: Any]] else {
            throw AppSignIn.Problem(description: "--jwt-jwks \(source) is not a JWKS (a JSON object whose \"keys\" is an array of keys)")
        }
        var ids: [String] = []
        for (index, key) in list.enumerated() {
            guard let id = key["kid"] as? String, !id.isEmpty else {
                throw AppSignIn.Problem(description: "--jwt-jwks \(source): keys[\(index)] has no \"kid\"; every key needs one, which the JWTs' header names")
            }
            guard let type = key["kty"] as? String, ["EC", "RSA", "OKP"].contains(type) else {
                throw AppSignIn.Problem(description: "--jwt-jwks \(source): key \(id.debugDescription) has kty \(String(describing: key["kty"] ?? "none")), not EC, RSA or OKP: only public keys verify the app's JWTs")
            }
            ids.append(id)
        }
        let collection = JWTKeyCollection()
        do { try await collection.add(jwks: try JSONDecoder().decode(JWKS.self, from: json)) } catch {
            throw AppSignIn.Problem(description: "--jwt-jwks \(source) holds a key this server cannot read (\(error))")
        }
        return (collection, ids)
    }

    /// The user `token` signs in, or a 401 naming what is wrong with it.
    func principal(of token: String) async throws -> Principal {
        guard let header = Self.json(ofPart: token.split(separator: ".", omittingEmptySubsequences: false).first ?? "") else {
            throw Self.refusal("its header is not base64url-encoded JSON")
        }
        let algorithm = header["alg"] as? String ?? "none"
        guard AppSignIn.algorithms.contains(algorithm) else {
            throw Self.refusal("it is signed with \(algorithm.debugDescription), and only public-key algorithms are accepted (\(AppSignIn.algorithms.joined(separator: ", ")))")
        }
        guard let keyID = header["kid"] as? String else {
            throw Self.refusal("its header names no key (kid); the app's backend must name the JWKS key it signed with")
        }
        if !keyIDs.contains(keyID), isURL, fetched.map({ $0.duration(to: .now) >= settings.refetchInterval }) ?? true {
            await loadLogging()
        }
        guard keyIDs.contains(keyID) else {
            throw Self.refusal("its key id \(keyID.debugDescription) is not in --jwt-jwks \(settings.keys) (\(keyIDs.isEmpty ? "no keys read" : "keys: " + keyIDs.joined(separator: ", ")))")
        }
        let claims: Claims
        do {
            claims = try await keys.verify(token, as: Claims.self)
        } catch let error as JWTError where error.errorType == .signatureVerificationFailed {
            throw Self.refusal("its signature does not verify with key \(keyID.debugDescription) of --jwt-jwks \(settings.keys)")
        } catch {
            throw Self.refusal("it does not verify (\((error as? JWTError)?.reason ?? "\(error)"))")
        }
        return try claims.principal(settings, now: now())
    }

    static func refusal(_ reason: String) -> SyncFailure {
        SyncFailure(401, "bad_token", "the JWT is refused: \(reason); sign in again for a current token")
    }

    /// A base64url part of a JWT decoded as a JSON object, or nil.
    static func json(ofPart part: Substring) -> [String: Any]? {
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        guard let data = Data(base64Encoded: text) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// The claims the server reads: `iss`, `aud`, `exp`, `nbf`, and every string claim (the user claim among them).
    struct Claims: JWTPayload {
        var issuer: String?
        var audience: [String]?
        var expiry: Double?
        var notBefore: Double?
        var strings: [String: String] = [:]

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            for key in container.allKeys {
                if let string = try? container.decode(String.self, forKey: key) { strings[key.stringValue] = string }
            }
            issuer = strings["iss"]
            audience = strings["aud"].map { [$0] } ?? (try? container.decode([String].self, forKey: Key(stringValue: "aud")))
            expiry = try? container.decode(Double.self, forKey: Key(stringValue: "exp"))
            notBefore = try? container.decode(Double.self, forKey: Key(stringValue: "nbf"))
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for (key, value) in strings { try container.encode(value, forKey: Key(stringValue: key)) }
        }

        /// The signature verified already; the claims are checked here, against `settings` and `now`.
        func verify(using algorithm: some JWTAlgorithm) async throws {}

        func principal(_ settings: AppSignIn, now: Date) throws -> Principal {
            let leeway = Double(settings.leeway.components.seconds)
            guard issuer == settings.issuer else {
                throw AppTokenVerifier.refusal("its issuer (iss) is \(issuer.map(\.debugDescription) ?? "missing"), not \(settings.issuer.debugDescription) (--jwt-issuer)")
            }
            guard let audience, audience.contains(settings.audience) else {
                throw AppTokenVerifier.refusal("its audience (aud) is \(audience.map { $0.map(\.debugDescription).joined(separator: ", ") } ?? "missing"), not \(settings.audience.debugDescription) (--jwt-audience)")
            }
            guard let expiry else { throw AppTokenVerifier.refusal("it has no expiry (exp), and only JWTs that expire are accepted") }
            guard now.timeIntervalSince1970 < expiry + leeway else {
                throw AppTokenVerifier.refusal("it expired at \(Self.time(expiry)) (exp), \(Int(leeway)) s of clock skew allowed")
            }
            if let notBefore, now.timeIntervalSince1970 + leeway < notBefore {
                throw AppTokenVerifier.refusal("it is not valid before \(Self.time(notBefore)) (nbf), \(Int(leeway)) s of clock skew allowed")
            }
            guard let user = strings[settings.userClaim] else {
                throw AppTokenVerifier.refusal("it has no string claim \(settings.userClaim.debugDescription) (--jwt-user-claim), which names the user")
            }
            guard SyncProtocol.isValidUser(user) else {
                throw AppTokenVerifier.refusal("its claim \(settings.userClaim.debugDescription) is \(user.debugDescription), not a valid user id (1 to \(SyncProtocol.maximumUserLength) of A-Z a-z 0-9 . _ @ -)")
            }
            return Principal(user: user, role: .user)
        }

        static func time(_ seconds: Double) -> String {
            Date(timeIntervalSince1970: seconds).formatted(.iso8601)
        }
    }
}
