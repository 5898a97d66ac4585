import CryptoExtras
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JWTKit
import JournalEvents
import JournalSync
import JournalTesting
import Testing
@testable import JournalServer
import Logging
import PostgresNIO

/// Sign-in with the app's own JWTs (SYNC.md §"Signing in with the app's own auth"): the test is the app's backend,
/// with an ES256 and an RS256 key it makes, their public halves in a JWKS the server reads.
@Suite("journal-server accepts the app's JWTs beside its own tokens, and refuses a bad one with a 401 naming why")
struct AppSignInTests {
    static let issuer = "https://auth.example.app", audience = "journal.example.app"

    /// What the test's backend signs: the standard claims it sets, each omitted when nil.
    struct TestClaims: JWTPayload {
        var iss: String? = AppSignInTests.issuer
        var aud: String? = AppSignInTests.audience
        var exp: Double? = Date().timeIntervalSince1970 + 3_600
        var nbf: Double?
        var sub: String?
        var uid: String?
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// The backend's keys: an ES256 key `es` and an RS256 key `rs` (and the JWKS of their public halves), plus keys
    /// the server does not list.
    struct Backend {
        let signing = JWTKeyCollection()
        let es = ES256PrivateKey()
        let jwks: String

        init() async throws {
            let rsa = try Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
            await signing.add(ecdsa: es, kid: "es")
            await signing.add(rsa: rsa, digestAlgorithm: .sha256, kid: "rs")
            let (x, y) = es.parameters!
            let (modulus, exponent) = try rsa.publicKey.getKeyPrimitives()
            jwks = """
                {"keys":[{"kty":"EC","crv":"P-256","kid":"es","alg":"ES256","use":"sig","x":"\(x)","y":"\(y)"},\
                {"kty":"RSA","kid":"rs","alg":"RS256","use":"sig","n":"\(modulus.base64URL)","e":"\(exponent.base64URL)"}]}
                """
        }

        func sign(_ claims: TestClaims, kid: String = "es") async throws -> String {
            try await signing.sign(claims, kid: JWKIdentifier(string: kid))
        }

        /// Signs with another ES256 key under the listed key id `es`: a signature that does not verify.
        func forge(_ claims: TestClaims) async throws -> String {
            try await JWTKeyCollection().add(ecdsa: ES256PrivateKey(), kid: "es").sign(claims, kid: "es")
        }
    }

    static func settings(_ keys: String) -> AppSignIn {
        AppSignIn(keys: keys, issuer: issuer, audience: audience)
    }

    /// The JWKS in a file of `directory`.
    static func jwksFile(_ backend: Backend, in directory: ScratchDirectory) throws -> String {
        let file = directory.file("jwks.json")
        try Data(backend.jwks.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    struct Answer { var status: Int; var body: String }

    static func send(_ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, _ token: String,
                     _ body: [UInt8] = []) async throws -> Answer {
        try await client.execute(uri: uri, method: method, headers: [.authorization: "Bearer \(token)"],
                                 body: body.isEmpty ? nil : ByteBuffer(bytes: body)) { response in
            Answer(status: Int(response.status.code), body: String(buffer: response.body))
        }
    }

    @Test("a user first seen through a JWT (ES256, then RS256) pushes and pulls on PostgreSQL as a token's user does; the server's own tokens still work")
    func jwtUserSyncs() async throws {
        let backend = try await Backend()
        let scratch = ScratchDirectory("signin")
        defer { scratch.remove() }
        let user = PostgresFixture.freshUser("jwt")
        let (other, otherToken) = try await PostgresFixture.freshPrincipal("own")
        var configuration = try PostgresFixture.configuration()
        configuration.appSignIn = Self.settings(try Self.jwksFile(backend, in: scratch))
        let es = try await backend.sign(TestClaims(sub: user))
        let rs = try await backend.sign(TestClaims(sub: user), kid: "rs")
        let events = try recordedEvents(device: "ph", workouts: 1, in: scratch)
        let app = try await buildApplication(configuration)
        try await app.test(.live) { client in
            var answer = try await Self.send(client, .get, "/v1/whoami", es)
            #expect(answer.status == 200)
            #expect(answer.body == #"{"role":"user","user":"\#(user)"}"#)
            answer = try await Self.send(client, .post, SyncProtocol.eventsPath(user: user), es, SyncBody.push(events))
            #expect(answer.status == 200, "\(answer.body)")
            #expect(answer.body.contains(#""stored":4"#))
            answer = try await Self.send(client, .get, SyncProtocol.eventsPath(user: user) + "?after=0", rs)
            #expect(answer.status == 200)
            #expect(try SyncBody.page(Array(answer.body.utf8)).events.map(\.id) == ["ph-1", "ph-2", "ph-3", "ph-4"])
            answer = try await Self.send(client, .get, SyncProtocol.eventsPath(user: other) + "?after=0", es)
            #expect(answer.status == 403)
            #expect(answer.body == #"{"error":{"code":"forbidden","message":"this token belongs to user \#(user); it may not read user \#(other)'s journal"}}"#)
            answer = try await Self.send(client, .get, "/v1/whoami", otherToken)
            #expect(answer.body == #"{"role":"user","user":"\#(other)"}"#)
        }
        // The user's row came from the push, as a token's user's does; no token was stored for it.
        #expect(try await PostgresFixture.scalar("SELECT count(*) FROM journal_users WHERE user_id = \(user)") == 1)
        #expect(try await PostgresFixture.scalar("SELECT count(*) FROM journal_tokens WHERE user_id = \(user)") == 0)
    }

    @Test("a forged signature, an unknown key, a shared-secret algorithm, an expired, early, wrong-audience, wrong-issuer or unexpiring JWT, and a missing or invalid user claim are each refused 401, naming why")
    func refusals() async throws {
        let backend = try await Backend()
        let scratch = ScratchDirectory("signin")
        defer { scratch.remove() }
        let store = MemorySyncStore()
        var configuration = ServerConfiguration(database: try DatabaseURL("postgres://nobody@127.0.0.1:1/none"))
        configuration.logLevel = .critical
        configuration.appSignIn = Self.settings(try Self.jwksFile(backend, in: scratch))
        let hmac = try await JWTKeyCollection().add(hmac: "a shared secret of 32 bytes or more...", digestAlgorithm: .sha256, kid: "es").sign(TestClaims(sub: "ada"))
        let cases: [(String, String)] = [
            (try await backend.forge(TestClaims(sub: "ada")), #"its signature does not verify with key \"es\" of --jwt-jwks \#(scratch.file("jwks.json"))"#),
            (try await JWTKeyCollection().add(ecdsa: ES256PrivateKey(), kid: "new").sign(TestClaims(sub: "ada"), kid: "new"),
             #"its key id \"new\" is not in --jwt-jwks \#(scratch.file("jwks.json")) (keys: es, rs)"#),
            (hmac, #"it is signed with \"HS256\", and only public-key algorithms are accepted (ES256, ES384, ES512, RS256, RS384, RS512, PS256, PS384, PS512, EdDSA)"#),
            (try await backend.sign(TestClaims(exp: 1_000_000_000, sub: "ada")), "it expired at 2001-09-09T01:46:40Z (exp), 60 s of clock skew allowed"),
            (try await backend.sign(TestClaims(nbf: 4_000_000_000, sub: "ada")), "it is not valid before 2096-10-02T07:06:40Z (nbf), 60 s of clock skew allowed"),
            (try await backend.sign(TestClaims(aud: "another.app", sub: "ada")), #"its audience (aud) is \"another.app\", not \"journal.example.app\" (--jwt-audience)"#),
            (try await backend.sign(TestClaims(iss: "https://evil.example", sub: "ada")), #"its issuer (iss) is \"https://evil.example\", not \"https://auth.example.app\" (--jwt-issuer)"#),
            (try await backend.sign(TestClaims(exp: nil, sub: "ada")), "it has no expiry (exp), and only JWTs that expire are accepted"),
            (try await backend.sign(TestClaims(uid: "ada")), #"it has no string claim \"sub\" (--jwt-user-claim), which names the user"#),
            (try await backend.sign(TestClaims(sub: "ada lovelace")), #"its claim \"sub\" is \"ada lovelace\", not a valid user id (1 to 64 of A-Z a-z 0-9 . _ @ -)"#),
        ]
        let app = try await buildApplication(configuration, makeStore: { _, _, _ in (store, []) })
        try await app.test(.router) { client in
            for (token, reason) in cases {
                let answer = try await Self.send(client, .get, SyncProtocol.eventsPath(user: "ada") + "?after=0", token)
                #expect(answer.status == 401)
                #expect(answer.body == #"{"error":{"code":"bad_token","message":"the JWT is refused: \#(reason); sign in again for a current token"}}"#)
            }
            let answer = try await Self.send(client, .get, "/v1/whoami", try await backend.sign(TestClaims(sub: "ada"), kid: "rs"))
            #expect(answer.body == #"{"role":"user","user":"ada"}"#)
        }
    }

    @Test("another claim names the user when configured; a server started without --jwt-jwks refuses a JWT saying so")
    func userClaimAndNoSignIn() async throws {
        let backend = try await Backend()
        let scratch = ScratchDirectory("signin")
        defer { scratch.remove() }
        var configuration = ServerConfiguration(database: try DatabaseURL("postgres://nobody@127.0.0.1:1/none"))
        configuration.logLevel = .critical
        let token = try await backend.sign(TestClaims(sub: "apple.000123", uid: "ada"))
        let app = try await buildApplication(configuration, makeStore: { _, _, _ in (MemorySyncStore(), []) })
        try await app.test(.router) { client in
            let answer = try await Self.send(client, .get, "/v1/whoami", token)
            #expect(answer.status == 401)
            #expect(answer.body == #"{"error":{"code":"bad_token","message":"the token is a JWT, and this server takes only its own tokens (it was started without --jwt-jwks); send a token `journal-server token create` printed"}}"#)
        }
        configuration.appSignIn = Self.settings(try Self.jwksFile(backend, in: scratch))
        configuration.appSignIn?.userClaim = "uid"
        let signingIn = try await buildApplication(configuration, makeStore: { _, _, _ in (MemorySyncStore(), []) })
        try await signingIn.test(.router) { client in
            let answer = try await Self.send(client, .get, "/v1/whoami", token)
            #expect(answer.body == #"{"role":"user","user":"ada"}"#)
        }
    }

    @Test("serve takes the three --jwt flags together, and stops at start on a JWKS file that does not read")
    func serveFlags() throws {
        let scratch = ScratchDirectory("signin")
        defer { scratch.remove() }
        let database = ["serve", "--database", "postgres://nobody@127.0.0.1:1/none", "--listen", "127.0.0.1:0"]
        let alone = PostgresFixture.run(PatroniCluster.serverBinary, database + ["--jwt-jwks", scratch.file("jwks.json")])
        #expect(alone.status == 64)
        #expect(alone.stderr.contains("Error: --jwt-jwks, --jwt-issuer and --jwt-audience go together: give all three to accept the app's JWTs, or none"), "\(alone)")
        let missing = PostgresFixture.run(PatroniCluster.serverBinary, database + ["--jwt-jwks", scratch.file("jwks.json"),
                                                                                  "--jwt-issuer", Self.issuer, "--jwt-audience", Self.audience])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("Error: --jwt-jwks \(scratch.file("jwks.json")) is not a readable file (no such file); give a JWKS file or an https:// URL that serves one"), "\(missing)")
    }

    /// A JWKS URL's answers, which the test changes.
    final class FakeKeyServer: SyncTransport, @unchecked Sendable {
        // @unchecked: the test changes `jwks` between requests, never during one.
        var jwks: String
        var requests = 0
        init(_ jwks: String) { self.jwks = jwks }
        func exchange(_ request: SyncClient.HTTPRequest) async throws -> (status: Int, body: Data) {
            requests += 1
            return (200, Data(jwks.utf8))
        }
    }

    @Test("a JWKS URL is fetched again for a key id it did not list (a rotated key), at most once per interval; a bad key source names itself")
    func keySources() async throws {
        let old = try await Backend(), new = try await Backend()
        let server = FakeKeyServer(old.jwks)
        var settings = Self.settings("https://auth.example.app/.well-known/jwks.json")
        settings.refetchInterval = .seconds(3_600)
        let verifier = AppTokenVerifier(settings, transport: server, logger: .init(label: "test"))
        try await verifier.load()
        #expect(try await verifier.principal(of: try await old.sign(TestClaims(sub: "ada"))) == Principal(user: "ada", role: .user))
        // The backend rotates to a key the server has not read, with a kid of its own.
        let rotated = try await JWTKeyCollection().add(ecdsa: new.es, kid: "es2").sign(TestClaims(sub: "ada"), kid: "es2")
        server.jwks = new.jwks.replacingOccurrences(of: #""kid":"es""#, with: #""kid":"es2""#)
        // Within the interval the URL is not asked again.
        await #expect(throws: SyncFailure.self) { try await verifier.principal(of: rotated) }
        #expect(server.requests == 1)
        settings.refetchInterval = .zero
        let eager = AppTokenVerifier(settings, transport: server, logger: .init(label: "test"))
        server.jwks = old.jwks
        try await eager.load()
        server.jwks = new.jwks.replacingOccurrences(of: #""kid":"es""#, with: #""kid":"es2""#)
        #expect(try await eager.principal(of: rotated) == Principal(user: "ada", role: .user))
        #expect(server.requests == 3)

        let scratch = ScratchDirectory("signin")
        defer { scratch.remove() }
        for (jwks, problem) in [
            (nil, "--jwt-jwks \(scratch.file("jwks.json")) is not a readable file (no such file); give a JWKS file or an https:// URL that serves one"),
            (#"{"keys":{}}"#, #"--jwt-jwks \#(scratch.file("jwks.json")) is not a JWKS (a JSON object whose "keys" is an array of keys)"#),
            (#"{"keys":[{"kty":"oct","kid":"s","k":"c2VjcmV0"}]}"#, #"--jwt-jwks \#(scratch.file("jwks.json")): key "s" has kty oct, not EC, RSA or OKP: only public keys verify the app's JWTs"#),
            (#"{"keys":[{"kty":"EC","crv":"P-256"}]}"#, #"--jwt-jwks \#(scratch.file("jwks.json")): keys[0] has no "kid"; every key needs one, which the JWTs' header names"#),
        ] as [(String?, String)] {
            if let jwks { try Data(jwks.utf8).write(to: URL(fileURLWithPath: scratch.file("jwks.json"))) }
            let verifier = AppTokenVerifier(Self.settings(scratch.file("jwks.json")), logger: .init(label: "test"))
            await #expect { try await verifier.load() } throws: { error in "\(error)" == problem }
        }
    }

    /// Answers each request from a script of statuses (401 with the server's refusal body), recording the bearer
    /// token each one carried.
    final class ScriptedServer: SyncTransport, @unchecked Sendable {
        // @unchecked: `statuses` and `tokens` are only touched under `lock`.
        let lock = NSLock()
        var statuses: [Int]
        var tokens: [String?] = []
        init(_ statuses: [Int]) { self.statuses = statuses }
        func exchange(_ request: SyncClient.HTTPRequest) async throws -> (status: Int, body: Data) {
            let status = lock.withLock {
                tokens.append(request.headers.first { $0.0 == "Authorization" }?.1)
                return statuses.isEmpty ? 200 : statuses.removeFirst()
            }
            if status == 401 { return (401, Data(#"{"error":{"code":"bad_token","message":"the JWT is refused: it expired"}}"#.utf8)) }
            return (200, Data(#"{"user":"ada","role":"user"}"#.utf8))
        }
    }

    @Test("a client with a token provider asks it before each request and once more after a 401, sending the request again; a second 401 is reported, a fixed token is not asked again, and a provider that throws fails the request in its words")
    func tokenProviderAskedAfterRefusal() async throws {
        let asked = Recorded<SyncClient.TokenRequest>()
        let provider: SyncClient.TokenProvider = { request in
            "jwt-\(asked.append(request))"
        }
        let server = ScriptedServer([200, 401, 200, 401, 401])
        let client = SyncClient(server: URL(string: "http://127.0.0.1:9")!, transport: server, tokenProvider: provider)
        #expect(client.token == nil)
        _ = try await client.whoami()
        _ = try await client.whoami()
        await #expect(throws: SyncClient.Failure.refused(status: 401, code: "bad_token", message: "the JWT is refused: it expired")) {
            _ = try await client.whoami()
        }
        #expect(server.tokens == ["Bearer jwt-1", "Bearer jwt-2", "Bearer jwt-3", "Bearer jwt-4", "Bearer jwt-5"])
        #expect(asked.values == [SyncClient.TokenRequest(), SyncClient.TokenRequest(),
                                 SyncClient.TokenRequest(refused: "jwt-2", reason: "the JWT is refused: it expired"),
                                 SyncClient.TokenRequest(), SyncClient.TokenRequest(refused: "jwt-4", reason: "the JWT is refused: it expired")])

        let fixed = ScriptedServer([401])
        await #expect(throws: SyncClient.Failure.self) {
            _ = try await SyncClient(server: URL(string: "http://127.0.0.1:9")!, token: "wjt_x", transport: fixed).whoami()
        }
        #expect(fixed.tokens == ["Bearer wjt_x"])

        struct SignedOut: Error, CustomStringConvertible { var description: String { "the user signed out" } }
        let none = ScriptedServer([])
        let failing = SyncClient(server: URL(string: "http://127.0.0.1:9")!, transport: none, tokenProvider: { _ in throw SignedOut() })
        await #expect(throws: SyncClient.Failure.tokenProvider("the user signed out")) { _ = try await failing.whoami() }
        #expect(none.tokens.isEmpty)
        #expect("\(SyncClient.Failure.tokenProvider("the user signed out"))"
            == "the app's token provider gave no token: the user signed out; nothing was sent; the user may need to sign in again")
    }
}

extension Data {
    /// Base64url without padding (RFC 7515 §2), as a JWK's numbers are written.
    var base64URL: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
