import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
@testable import JournalServer

/// docs/sync-openapi.yaml against the router itself: the same routes with the same methods and path parameters, and
/// the refusals every route can give (503 before the schema is migrated, 401 without a token) documented where the
/// router gives them. No database: the routes are answered before any reaches the store.
@Suite("The OpenAPI document describes the router: routes, methods, path parameters and its refusals")
struct OpenAPIContractTests {
    static let documentPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/sync-openapi.yaml").path

    /// The document as JSON, converted by PyYAML (python3-yaml, installed by scripts/setup).
    static func document() throws -> [String: Any] {
        let script = "import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)"
        let output = PostgresFixture.run("/usr/bin/python3", ["-c", script, documentPath])
        guard output.status == 0, let object = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any] else {
            throw PostgresFixture.Failure(description: "python3 could not read \(documentPath) as YAML (scripts/setup installs python3-yaml): \(output)")
        }
        return object
    }

    /// "METHOD /path/{param}" of every operation in the document, with the status codes it lists.
    static func documentedOperations() throws -> [String: Set<Int>] {
        let paths = try #require(try document()["paths"] as? [String: [String: Any]])
        var operations: [String: Set<Int>] = [:]
        for (path, item) in paths {
            for (method, operation) in item where ["get", "post", "put", "delete", "patch"].contains(method) {
                let responses = (operation as? [String: Any])?["responses"] as? [String: Any] ?? [:]
                operations["\(method.uppercased()) \(path)"] = Set(responses.keys.compactMap { Int($0) })
            }
        }
        return operations
    }

    /// The router of `journal-server serve` around a store that is never asked, with its schema gate.
    static func routes(schema: SchemaGate) -> Router<SyncRequestContext> {
        var logger = Logger(label: "openapi")
        logger.logLevel = .critical
        return SyncRoutes(store: MemorySyncStore(), logger: logger,
                          database: "postgres://nobody@127.0.0.1:1/none", schema: schema).router()
    }

    /// "METHOD /path/{param}" of every route the router registers.
    static func registeredOperations() -> [String] {
        routes(schema: .open).routes.map { route in
            let segments = route.path.description.split(separator: "/").map { segment in
                segment.hasPrefix(":") ? "{\(segment.dropFirst())}" : String(segment)
            }
            return "\(route.method.rawValue) /\(segments.joined(separator: "/"))"
        }.sorted()
    }

    /// A request to an operation, its path parameters filled in.
    static func uri(_ operation: String) -> (method: HTTPRequest.Method, uri: String) {
        let parts = operation.split(separator: " ")
        let path = parts[1].replacingOccurrences(of: "{user}", with: "ada").replacingOccurrences(of: "{workout}", with: "w1")
        return (HTTPRequest.Method(rawValue: String(parts[0]))!, path)
    }

    @Test("every route the router registers is in the document with the same method, and nothing else is")
    func sameRoutes() throws {
        #expect(Self.registeredOperations() == (try Self.documentedOperations()).keys.sorted())
        #expect(Self.registeredOperations() == [
            "GET /health", "GET /health/live", "GET /health/ready", "GET /metrics", "GET /v1/access-log",
            "GET /v1/journals/{user}/events", "GET /v1/journals/{user}/report",
            "GET /v1/journals/{user}/workouts/{workout}/timeline", "GET /v1/whoami", "POST /v1/journals/{user}/events",
        ])
    }

    @Test("each path parameter of a route is a documented path parameter of its path")
    func pathParameters() throws {
        let document = try Self.document()
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let components = try #require((document["components"] as? [String: Any])?["parameters"] as? [String: [String: Any]])
        for (path, item) in paths {
            let inPath = path.split(separator: "/").filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) }
            let declared = (item["parameters"] as? [[String: Any]] ?? []).compactMap { reference -> String? in
                guard let ref = reference["$ref"] as? String, let name = ref.split(separator: "/").last,
                      let parameter = components[String(name)], parameter["in"] as? String == "path" else { return nil }
                return parameter["name"] as? String
            }
            #expect(inPath.sorted() == declared.sorted(), "\(path)")
        }
    }

    @Test("before the schema is migrated every route but /health/live and /metrics answers 503, and the document lists it")
    func unavailableIsDocumented() async throws {
        let operations = try Self.documentedOperations()
        let app = Application(router: Self.routes(schema: SchemaGate()))
        try await app.test(.router) { client in
            for operation in operations.keys.sorted() {
                let (method, uri) = Self.uri(operation)
                let status = try await client.execute(uri: uri, method: method, headers: [.authorization: "Bearer wjt_0000"]) { $0.status.code }
                let expected = ["GET /health/live", "GET /metrics"].contains(operation) ? 200 : 503
                #expect(status == expected, "\(operation)")
                #expect(operations[operation]!.contains(status), "\(operation) answers \(status), which the document does not list")
            }
        }
    }

    @Test("without a token every /v1 route answers 401, and the document lists it")
    func missingTokenIsDocumented() async throws {
        let operations = try Self.documentedOperations()
        let app = Application(router: Self.routes(schema: .open))
        try await app.test(.router) { client in
            for operation in operations.keys.sorted() where operation.contains(" /v1/") {
                let (method, uri) = Self.uri(operation)
                let status = try await client.execute(uri: uri, method: method) { $0.status.code }
                #expect(status == 401, "\(operation)")
                #expect(operations[operation]!.contains(status), "\(operation) answers \(status), which the document does not list")
            }
        }
    }
}
