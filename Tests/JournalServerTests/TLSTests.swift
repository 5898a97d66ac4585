import Foundation
import Hummingbird
import HummingbirdTesting
import JournalServer
import JournalSync
import JournalTesting
import Testing

/// TLS on both hops (OPERATIONS.md §"TLS"), with certificates a private authority made by the test signed for
/// 127.0.0.1: devices to the server over HTTPS, the server to PostgreSQL with `sslmode=verify-full`.
@Suite("TLS: devices reach the server over HTTPS and the server reaches PostgreSQL with sslmode=verify-full")
struct TLSTests {
    /// A certificate authority and a certificate it signed for 127.0.0.1 and localhost.
    struct Certificates {
        let directory: String
        var authority: String { directory + "/ca.crt" }
        var certificate: String { directory + "/server.crt" }
        var key: String { directory + "/server.key" }

        init(in directory: String) throws {
            self.directory = directory
            func openssl(_ arguments: [String]) throws {
                let result = PostgresFixture.run("/usr/bin/openssl", arguments)
                guard result.status == 0 else { throw PostgresFixture.Failure(description: "openssl \(arguments.joined(separator: " ")): \(result)") }
            }
            let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
            try openssl(["req", "-x509"] + curve + ["-keyout", "\(directory)/ca.key", "-out", authority, "-days", "2", "-subj", "/CN=journal test ca"])
            try openssl(["req"] + curve + ["-keyout", key, "-out", "\(directory)/server.csr", "-subj", "/CN=localhost"])
            try "subjectAltName = IP:127.0.0.1, DNS:localhost\n".write(toFile: "\(directory)/san.cnf", atomically: true, encoding: .utf8)
            try openssl(["x509", "-req", "-in", "\(directory)/server.csr", "-CA", authority, "-CAkey", "\(directory)/ca.key", "-CAcreateserial",
                         "-out", certificate, "-days", "2", "-extfile", "\(directory)/san.cnf"])
        }
    }

    @Test("push and pull over HTTPS trusting the test's authority, refused without it; the server's connections to PostgreSQL are TLS, checked against the authority; serve refuses plain HTTP off loopback")
    func bothHops() async throws {
        let scratch = ScratchDirectory("tls")
        let certificates = try Certificates(in: scratch.path)
        // A cluster of its own (its settings change), where the postgres user can reach it.
        let cluster = FileManager.default.temporaryDirectory.appendingPathComponent("journal-tls-\(getpid())-\(UInt32.random(in: 0 ... .max))").path
        defer {
            PostgresFixture.script(["stop", cluster])
            try? FileManager.default.removeItem(atPath: cluster)
        }
        let plain = try DatabaseURL(try PostgresFixture.startCluster(["start", cluster]))
        // PostgreSQL reads its key only when its own user owns it with no access for others.
        for file in [certificates.certificate, certificates.key] {
            let copy = "\(cluster)/data/\(URL(fileURLWithPath: file).lastPathComponent)"
            try FileManager.default.copyItem(atPath: file, toPath: copy)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: copy)
            if getuid() == 0 { #expect(PostgresFixture.run("/bin/chown", ["postgres:postgres", copy]).status == 0) }
        }
        for setting in ["ssl = on", "ssl_cert_file = 'server.crt'", "ssl_key_file = 'server.key'"] {
            #expect(PostgresFixture.psql("ALTER SYSTEM SET \(setting)", on: plain).status == 0)
        }
        #expect(PostgresFixture.psql("SELECT pg_reload_conf()", on: plain).status == 0)
        for _ in 0..<100 where PostgresFixture.psql("SHOW ssl", on: plain).stdout != "on\n" { try await Task.sleep(for: .milliseconds(20)) }

        let checked = try DatabaseURL("\(plain)?sslmode=verify-full&sslrootcert=\(certificates.authority)")
        let user = PostgresFixture.freshUser("tls"), token = Tokens.generate()
        try await withSyncStore(checked) { store in try await store.addToken(token, user: user, role: .user) }
        var configuration = ServerConfiguration(database: checked, port: 0)
        configuration.tls = ServerTLS(certificateChain: certificates.certificate, privateKey: certificates.key)
        let app = try await buildApplication(configuration)
        let events = try recordedEvents(device: "ph", workouts: 1, in: scratch)
        try await app.test(.live) { client in
            let server = URL(string: "https://127.0.0.1:\(try #require(client.port))")!
            let trusting = SyncClient(server: server, token: token, transport: HTTPClientTransport(environment: ["SSL_CERT_FILE": certificates.authority]))
            let pushed = try await trusting.push(user: user, events: events)
            #expect(pushed.stored == 4)
            #expect(try await trusting.pull(user: user, after: .start).events == events)
            // Every connection of the server to PostgreSQL is encrypted.
            let connections = PostgresFixture.psql("SELECT count(*) FILTER (WHERE NOT s.ssl) || ' ' || count(*) FILTER (WHERE s.ssl) FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE a.backend_type = 'client backend' AND a.pid <> pg_backend_pid() AND a.client_addr IS NOT NULL", on: plain).stdout
            let counts = connections.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
            #expect(counts.count == 2 && counts[0] == 0 && counts[1] >= 1, "plaintext and TLS connections: \(connections)")
            // A device that does not trust the authority stops at the handshake.
            let untrusting = SyncClient(server: server, token: token, transport: HTTPClientTransport(environment: [:]))
            do {
                _ = try await untrusting.pull(user: user, after: .start)
                Issue.record("a device that does not trust the authority was answered")
            } catch SyncClient.Failure.transport(let reason) {
                #expect(reason.contains("the server's TLS certificate is not trusted by this machine"), "\(reason)")
            }
        }

        // A server that trusts another authority is refused at PostgreSQL's handshake, and says so: the health page
        // names the host, the TLS refusal and the file to fix, not only that connections ran out.
        let stranger = ScratchDirectory("tls-other")
        let other = try Certificates(in: stranger.path)
        let wrongTrust = try DatabaseURL("\(plain)?sslmode=verify-full&sslrootcert=\(other.authority)")
        var misconfigured = ServerConfiguration(database: wrongTrust, port: 0)
        misconfigured.databaseDeadline = .seconds(3)
        try await buildApplication(misconfigured).test(.live) { client in
            var body = ""
            for _ in 0..<100 {
                body = try await client.execute(uri: "/health/ready", method: .get) { String(buffer: $0.body) }
                if body.contains("refused") { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            let endpoint = try #require(wrongTrust.endpoints.first)
            #expect(body.contains("\(endpoint) refused the TLS handshake: its certificate is not signed by the authority in sslrootcert=\(other.authority) for this host name (CERTIFICATE_VERIFY_FAILED)"), "\(body)")
            #expect(body.contains("give sslrootcert the authority that signed PostgreSQL's certificate"), "\(body)")
        }
        // A fleet job names the same refusal.
        let fleet = PostgresFixture.run(PatroniCluster.serverBinary, ["fleet", "verify", "--database", "\(plain)?sslmode=verify-full&sslrootcert=\(other.authority)"])
        #expect(fleet.status == 1, "\(fleet)")
        #expect(fleet.stderr.contains("refused the TLS handshake: its certificate is not signed by the authority in sslrootcert=\(other.authority) for this host name (CERTIFICATE_VERIFY_FAILED)"), "\(fleet)")

        let refused = PostgresFixture.run(PatroniCluster.serverBinary, ["serve", "--database", plain.description, "--listen", "0.0.0.0:0"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("Error: --listen 0.0.0.0:0 is not a loopback address, and plain HTTP is served on loopback only: give --tls-certificate and --tls-key, or listen on 127.0.0.1 behind a proxy that terminates TLS"), "\(refused)")
    }
}
