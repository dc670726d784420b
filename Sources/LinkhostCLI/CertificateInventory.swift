import ACME
import CertificateIssuing
import Foundation
import LinkhostKit
import OrderedJSON

/// Each host's certificate as the disk has it, without the server: the ACME storage's chain and
/// status record, or the `certificate` file.
struct CertificateInventory {
    struct Row {
        var host: String
        var record: CertificateRecord?
    }

    let rows: [Row]

    init(configuration: LinkhostConfiguration) {
        var rows: [Row] = []
        let tls = configuration.server.tls
        for site in configuration.sites {
            var record: CertificateRecord?
            if let acme = tls?.acme {
                record = Self.acmeRecord(site: site, storageFolder: acme.storagePath)
            } else if let tls {
                var file = CertificateRecord(id: site.id, hosts: site.hosts, source: .file)
                if let facts = CertificateFacts(pem: tls.certificatePEM) { file.describe(facts) }
                record = file
            }
            rows += site.hosts.map { Row(host: $0, record: record) }
        }
        self.rows = rows
    }

    /// The stored chain's facts with the manager's status record; the folder is only read.
    static func acmeRecord(site: SiteConfiguration, storageFolder: String) -> CertificateRecord {
        let folder = storageFolder + "/certificates/" + site.id
        var record = CertificateRecord(id: site.id, hosts: site.hosts, source: .acme)
        if let data = FileManager.default.contents(atPath: folder + "/status.json") {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            if let saved = try? decoder.decode(CertificateRecord.self, from: data) { record = saved }
        }
        if let data = FileManager.default.contents(atPath: folder + "/certificate.pem"),
            let facts = CertificateFacts(pem: String(decoding: data, as: UTF8.self))
        {
            record.describe(facts)
        } else if record.lastError == nil {
            record.lastError = "no certificate issued yet"
            record.lastErrorFix = "start linkhost serve: it orders one in the background"
        }
        return record
    }

    var json: JSONValue {
        let now = Date()
        return .object([
            JSONMember(
                "certificates",
                .array(
                    rows.map { row in
                        var members = [JSONMember("host", .string(row.host))]
                        if case .object(let fields) = row.record?.json(at: now) {
                            members += fields.filter { $0.key != "hosts" && $0.key != "degraded" }
                        } else {
                            members.append(JSONMember("source", .string("none")))
                        }
                        return .object(members)
                    }))
        ])
    }

    var text: String {
        var lines: [String] = []
        for row in rows {
            guard let record = row.record else {
                lines.append("\(row.host): no HTTPS (server.tls is not set)")
                continue
            }
            let date = { (value: Date?) in value.map(CertificateRecord.timestamp) ?? "-" }
            var line = "\(row.host): \(record.source.rawValue), issuer \(record.issuer ?? "-"), serial \(record.serial ?? "-"), "
            line += "not after \(date(record.notAfter)), next renewal \(record.source == .acme ? date(record.nextRenewal) : "- (a file)")"
            if let error = record.lastError { line += "\n    last error: \(error)" + (record.lastErrorFix.map { "\n    fix: \($0)" } ?? "") }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
