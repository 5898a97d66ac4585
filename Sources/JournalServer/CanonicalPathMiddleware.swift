import Hummingbird

/// Refuses a path that is not in its one canonical form — an empty segment (`//`) or a trailing `/` — with
/// `404 not_canonical`, before any other middleware or route sees it: every route is reached by one spelling only,
/// the one the limits and logs know (SYNC.md §"Refusals").
struct CanonicalPathMiddleware<Context: RequestContext>: RouterMiddleware {

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        if path.contains("//") || (path.count > 1 && path.hasSuffix("/")) {
            var canonical = path.split(separator: "/").joined(separator: "/")
            canonical = "/" + canonical
            throw SyncFailure(404, "not_canonical", "the path \(path.debugDescription) has an empty segment or a trailing slash; send it as \(canonical.debugDescription)")
        }
        return try await next(request, context)
    }
}
