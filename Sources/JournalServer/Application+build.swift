import Hummingbird
import HummingbirdTLS
import Logging
import PostgresNIO
import ServiceLifecycle

/// What a server runs on: the store on a database, and the PostgreSQL clients it needs running (services of the app).
/// `makeSyncStore` is the server's; the load generator's peer designs bring their own (`StoreDesign.makeStore`).
public typealias SyncStoreMaker = @Sendable (_ database: DatabaseURL, _ logger: Logger, _ deadline: Duration)
    -> (store: any SyncStore, clients: [PostgresClient])

/// Builds the whole server from its configuration (the one place it is assembled): the PostgreSQL client
/// (a service of the app, so it shuts down gracefully with it), the store (`makeStore`), the migration
/// (`SchemaService`: the server listens after its first attempt, and answers 503 until one succeeds), and the routes
/// (`SyncRoutes`, with their middleware).
public func buildApplication(_ configuration: ServerConfiguration,
                             makeStore: SyncStoreMaker = { makeSyncStore($0, logger: $1, deadline: $2) }) async throws -> some ApplicationProtocol {
    var logger = Logger(label: "journal-server", factory: ServerLogHandler.init)
    logger.logLevel = configuration.logLevel
    let (store, clients) = makeStore(configuration.database, logger, configuration.databaseDeadline)
    // The support pages' reads on a replica, through a read-only client; the access log they write stays on `store`.
    let pageClient = configuration.readDatabase.map { PostgresClient(configuration: $0.readOnlyClientConfiguration, backgroundLogger: logger) }
    let pageReads = pageClient.map { PostgresSyncStore(client: $0, logger: logger, deadline: configuration.databaseDeadline) }
    let clientServices = (clients + (pageClient.map { [$0] } ?? [])).map { PostgresClientService(client: $0) }
    let gate = SchemaGate()
    let database = configuration.database.description
    var services: [any Service] = clientServices
    services.append(SchemaService(store: store, gate: gate, clients: clientServices, database: database,
                                  url: configuration.database, deadline: configuration.databaseDeadline,
                                  logger: logger))
    if let failover = store as? FailoverSyncStore { services.append(PrimaryWatchService(store: failover)) }
    // The app's JWT keys: a file that does not read stops the server here; a URL that does not answer is fetched
    // again when a JWT comes (the server's own tokens work meanwhile).
    let appTokens = configuration.appSignIn.map { AppTokenVerifier($0, logger: logger) }
    if let appTokens {
        if await appTokens.isURL { await appTokens.loadLogging() } else { try await appTokens.load() }
    }
    var app = Application(
        router: SyncRoutes(store: store, logger: logger, admission: configuration.admission,
                           database: database, schema: gate, pageReads: pageReads, appTokens: appTokens).router(),
        server: try configuration.tls.map { try .tls(configuration.timeouts.server(logger: logger), tlsConfiguration: $0.configuration()) }
            ?? configuration.timeouts.server(logger: logger),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "journal-server"),
        services: services,
        logger: logger
    )
    // The first migration attempt before the port opens: a server whose database answers serves no 503.
    app.beforeServerStarts { await gate.firstAttempt.wait() }
    return app
}
