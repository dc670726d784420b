import Foundation
import OrderedJSON
import TestSupport
import Testing

/// The OpenAPI document the admin listener serves, checked against the same listener: every path,
/// every parameter (and only those), every enum and every documented response code.
@Suite("Admin listener: the OpenAPI document matches the server", .ownThread)
struct OpenAPIDocumentTests {
    static func document(_ harness: AdminHarness) throws -> JSONValue {
        let response = try harness.admin("/api/v1/openapi.json")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        return try JSONParser().parse(response.body)
    }

    /// The names or values after "allowed: " in a 400's detail.
    static func allowedList(_ detail: String) -> Set<String> {
        guard let range = detail.range(of: "allowed: ") else { return [] }
        return Set(detail[range.upperBound...].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
    }

    /// A value the parameter accepts, from its schema.
    static func validValue(_ name: String, _ schema: JSONValue?) -> String {
        if let first = schema?["enum"]?.arrayElements?.first?.stringValue { return first }
        if schema?["type"] == "integer" { return "\(schema?["minimum"]?.numberValue?.intValue ?? 1)" }
        switch name {
        case "since": return "1h"
        case "until": return "2030-01-01"
        case "cursor": return "9999999999999.1"
        case "columns": return "id,path"
        case "host": return "rowhni.com"
        default: return "x"
        }
    }

    @Test func everyPathParameterAndResponseCodeIsWhatTheServerDoes() throws {
        let harness = try AdminHarness(listening: false)
        defer { harness.stop() }
        let document = try Self.document(harness)
        #expect(document["openapi"] == "3.1.0")
        let paths = try #require(document["paths"]?.objectMembers)
        #expect(
            Set(paths.map(\.key)) == [
                "/api/v1/hits", "/api/v1/stats", "/api/v1/funnel", "/api/v1/certificates/renew", "/api/v1/openapi.json", "/metrics", "/healthz",
            ])
        // The one change the API makes has its own test (`renewingCertificatesTakesTheBearerToken`).
        for path in paths where path.key != "/api/v1/certificates/renew" {
            let operation = try #require(path.value["get"], "\(path.key) documents GET")
            let codes = Set(operation["responses"]?.objectMembers?.map(\.key) ?? [])
            // Unauthenticated, authenticated, and with a method it does not take.
            #expect(codes.contains("401"))
            #expect(try harness.adminRequest(path.key).status == 401)
            let plain = try harness.admin(path.key)
            #expect(plain.status == 200, "\(path.key)")
            let documentedTypes = operation["responses"]?["200"]?["content"]?.objectMembers?.map(\.key) ?? []
            let servedType = plain.header("Content-Type")?.split(separator: ";").first.map(String.init) ?? ""
            #expect(documentedTypes.contains(servedType), "\(path.key) serves \(servedType), documents \(documentedTypes)")
            let post = try harness.adminRequest(path.key, method: "POST", headers: [("Authorization", "Bearer \(AdminHarness.token)")])
            #expect(post.status == 405)
            #expect(codes.contains("405"))

            let parameters = operation["parameters"]?.arrayElements ?? []
            let names = Set(parameters.compactMap { $0["name"]?.stringValue })
            if !names.isEmpty {
                // What the server accepts is what is documented: an unknown parameter's 400 lists them.
                let unknown = try harness.admin(path.key + "?zzz=1")
                #expect(unknown.status == 400)
                #expect(codes.contains("400"))
                #expect(Self.allowedList(try JSONParser().parse(unknown.body)["detail"]?.stringValue ?? "") == names, "\(path.key)")
                #expect(codes.contains("406"))
                #expect(try harness.admin(path.key, headers: [("Accept", "image/png")]).status == 406)
            }
            for parameter in parameters {
                let name = try #require(parameter["name"]?.stringValue)
                let schema = parameter["schema"]
                let valid = Self.validValue(name, schema)
                let accepted = try harness.admin(path.key + "?\(name)=\(valid)")
                #expect(accepted.status == 200, "\(path.key)?\(name)=\(valid): \(accepted.text)")
                guard schema?["enum"] != nil || schema?["type"] == "integer" else { continue }
                let refused = try harness.admin(path.key + "?\(name)=-7")
                #expect(refused.status == 400, "\(path.key)?\(name)=-7")
                let detail = try JSONParser().parse(refused.body)["detail"]?.stringValue ?? ""
                #expect(detail.hasPrefix(name + ":"))
                if let values = schema?["enum"]?.arrayElements?.compactMap(\.stringValue) {
                    #expect(Self.allowedList(detail) == Set(values), "\(path.key) \(name): documented \(values), server says \(detail)")
                } else {
                    #expect(detail.contains("\(schema?["maximum"]?.numberValue?.intValue ?? -1)"), "\(detail)")
                }
            }
        }
    }

    @Test func theLogErrorsItDocumentsHappen() throws {
        // 503 without a log.
        let off = try AdminHarness(settings: ["log.enabled": .bool(false)], listening: false)
        defer { off.stop() }
        let document = try Self.document(off)
        for path in ["/api/v1/hits", "/api/v1/stats", "/api/v1/funnel"] {
            let codes = Set(document["paths"]?[path]?["get"]?["responses"]?.objectMembers?.map(\.key) ?? [])
            #expect(codes.isSuperset(of: ["500", "503"]))
            let unavailable = try off.admin(path)
            #expect(unavailable.status == 503)
            #expect(try JSONParser().parse(unavailable.body)["error"] == "log_unavailable")
        }
        // 500 when the database cannot be read; the answer does not say more than that.
        // The writer fails on the replaced file from then on, and a stop waits for a failing
        // database until the grace period and 5 s more have passed: no grace here, so 5 s.
        let broken = try AdminHarness(settings: ["server.limits.shutdownGraceSeconds": 0], listening: false)
        defer { broken.stop() }
        _ = try broken.visit("/addfriend?code=X1")
        try broken.waitForRows(1)
        let junk = try broken.folder.write("junk", String(repeating: "not a database ", count: 400))
        #expect(rename(junk, broken.databasePath) == 0)
        // Its write-ahead log would still answer for the old file; the writer keeps its own handles.
        for suffix in ["-wal", "-shm"] { unlink(broken.databasePath + suffix) }
        for path in ["/api/v1/hits", "/api/v1/stats", "/api/v1/funnel"] {
            let failed = try broken.admin(path)
            #expect(failed.status == 500)
            let body = try JSONParser().parse(failed.body)
            #expect(body["error"] == "internal")
            #expect(body["detail"]?.stringValue?.contains("sqlite") == false)
            #expect(body["detail"]?.stringValue?.contains(broken.folder.path) == false)
        }
    }
}
