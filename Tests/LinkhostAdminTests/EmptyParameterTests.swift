import Foundation
import OrderedJSON
import TestSupport
import Testing

/// An empty query parameter (`?until=`, what an HTML form sends for an empty field) is the same as
/// leaving it out, for every parameter the OpenAPI document lists, as its `allowEmptyValue` says;
/// unknown names stay refused, empty or not.
@Suite("Admin API: an empty parameter is a parameter left out")
struct EmptyParameterTests {
    @Test func everyDocumentedParameterMayBeEmpty() throws {
        let harness = try AdminHarness(listening: false)
        defer { harness.stop() }
        _ = try harness.visit("/addfriend?code=ABC123&utm_source=mail")
        try harness.waitForRows(1)
        let document = try OpenAPIDocumentTests.document(harness)
        for path in ["/api/v1/hits", "/api/v1/stats", "/api/v1/funnel"] {
            let parameters = document["paths"]?[path]?["get"]?["parameters"]?.arrayElements ?? []
            #expect(parameters.count >= 12, "\(path)")
            let plain = try harness.admin(path)
            #expect(plain.status == 200)
            for parameter in parameters {
                let name = try #require(parameter["name"]?.stringValue)
                #expect(parameter["allowEmptyValue"] == .bool(true), "\(path) \(name)")
                for target in ["\(path)?\(name)=", "\(path)?\(name)"] {
                    let empty = try harness.admin(target)
                    #expect(empty.status == 200, "\(target): \(empty.text)")
                    #expect(empty.body == plain.body, "\(target)")
                }
            }
            // All at once, as a form with every field left empty sends them.
            let all = parameters.compactMap { $0["name"]?.stringValue }.map { "\($0)=" }.joined(separator: "&")
            #expect(try harness.admin("\(path)?\(all)").body == plain.body, "\(path)?\(all)")
        }
        // The funnel's refused `kind` is refused only with a value; unknown names whatever theirs.
        #expect(try harness.admin("/api/v1/funnel?kind=").status == 200)
        #expect(try harness.admin("/api/v1/funnel?kind=fallback").status == 400)
        #expect(try harness.admin("/api/v1/hits?utm_source=").status == 400)
        // An empty value does not count as giving the parameter: the one with a value is used.
        #expect(try harness.admin("/api/v1/hits?since=&since=1h&columns=id").body == harness.admin("/api/v1/hits?since=1h&columns=id").body)
        #expect(try harness.admin("/api/v1/hits?since=1h&since=2h").status == 400)
    }

    @Test func aHostFilterIsComparedAsHostsAreLoggedAndNeverRefused() throws {
        let harness = try AdminHarness(listening: false)
        defer { harness.stop() }
        _ = try harness.visit("/addfriend?code=ABC123")
        try harness.waitForRows(1)
        let exact = try harness.admin("/api/v1/hits?host=rowhni.com&columns=host")
        #expect(exact.status == 200)
        #expect(exact.text.contains("rowhni.com"))
        #expect(try harness.admin("/api/v1/hits?host=Rowhni.COM.:443&columns=host").body == exact.body)
        for nothing in [":80", "%5B%5D", ".", "no%20such%20host"] {
            let answer = try harness.admin("/api/v1/hits?host=\(nothing)")
            #expect(answer.status == 200, "host=\(nothing)")
            #expect(answer.text == "[]\n" || answer.text == "[]", "host=\(nothing): \(answer.text)")
        }
    }

    @Test func aCursorTheDocumentAllowsIsTakenAndALongerOneRefused() throws {
        let harness = try AdminHarness(listening: false)
        defer { harness.stop() }
        #expect(try harness.admin("/api/v1/hits?cursor=999999999999999999.999999999999999999").status == 200)
        // The one the issue found: its pattern allowed it, the server refused it; now both refuse it.
        let long = try harness.admin("/api/v1/hits?cursor=0.16840879575924325520290709")
        #expect(long.status == 400)
        #expect(try JSONParser().parse(long.body)["error"] == "bad_parameter")
    }
}
