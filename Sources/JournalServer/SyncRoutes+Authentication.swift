import Hummingbird
import JournalSync

/// Who a request is, and what it may read or write (SYNC.md §"Tokens and who may see what").
extension SyncRoutes {
    enum Access { case read, write }

    /// The caller's principal, allowed `access` to `user`'s journal, and the token it was found for; or a 401/403.
    /// `page`: an HTML page a browser opens, which may carry the token as `?token=` (SYNC.md §"Support pages in a
    /// browser").
    func authorize(_ request: Request, user: String, access: Access,
                   page: Bool = false) async throws -> (principal: Principal, token: String) {
        guard SyncProtocol.isValidUser(user) else {
            throw SyncFailure(400, "bad_user", "user \(user.debugDescription) is not a valid user id (1 to \(SyncProtocol.maximumUserLength) of A-Z a-z 0-9 . _ @ -)")
        }
        let (principal, token) = try await authenticate(request, access: access, page: page)
        switch principal.role {
        case .user where principal.user != user:
            throw SyncFailure(403, "forbidden", "this token belongs to user \(principal.user); it may not \(access == .read ? "read" : "write") user \(user)'s journal")
        case .support where access == .write:
            throw SyncFailure(403, "read_only", "support tokens are read-only; \(principal.user) may not write user \(user)'s journal")
        default:
            return (principal, token)
        }
    }

    /// `access` `.write`: the principal may be remembered from an earlier look-up (`SyncStore.authenticateForPush`); the
    /// push made with it is checked again when it commits. The token returned is the one the commit checks: "" for
    /// the app's JWT, checked whole here (SYNC.md §"Signing in with the app's own auth").
    func authenticate(_ request: Request, access: Access = .read,
                      page: Bool = false) async throws -> (principal: Principal, token: String) {
        let found: (principal: Principal, token: String)
        if page, request.headers[.authorization] == nil, let query = request.uri.queryParameters.get("token") {
            found = try await principal(of: String(query), access: access, unknown: SyncFailure(401, "bad_token", "the token in ?token= is unknown or revoked; open the page with a current token (`journal-server token create --database URL --user USER` prints a new one)"))
        } else {
            found = try await principal(of: try bearerToken(request), access: access, unknown: .unknownToken)
        }
        AccessLogMiddleware.caller?.user = found.principal.user
        return found
    }

    /// Whose `token` is: the app's JWT when it has a JWT's shape and the server takes them, the server's own otherwise
    /// (`unknown` when it is none of its live tokens).
    func principal(of token: String, access: Access, unknown: SyncFailure) async throws -> (principal: Principal, token: String) {
        if AppSignIn.isJWT(token) {
            guard let appTokens else {
                throw SyncFailure(401, "bad_token", "the token is a JWT, and this server takes only its own tokens (it was started without --jwt-jwks); send a token `journal-server token create` printed")
            }
            return (try await appTokens.principal(of: token), "")
        }
        guard let principal = try await (access == .write ? store.authenticateForPush(token: token) : store.authenticate(token: token)) else {
            throw unknown
        }
        return (principal, token)
    }

    /// The token of a request's `Authorization: Bearer TOKEN` header (401 when there is none, or another kind). The
    /// scheme's name is case-insensitive (RFC 9110 §11.1): `bearer TOKEN` is the same header.
    func bearerToken(_ request: Request) throws -> String {
        guard let header = request.headers[.authorization] else {
            throw SyncFailure(401, "missing_token", "no Authorization header; send `Authorization: Bearer TOKEN` (journal-server token create prints one)")
        }
        guard header.prefix(7).lowercased() == "bearer ", case let token = String(header.dropFirst(7)), !token.isEmpty else {
            throw SyncFailure(401, "bad_token", "the Authorization header is not `Bearer TOKEN`")
        }
        return token
    }
}
