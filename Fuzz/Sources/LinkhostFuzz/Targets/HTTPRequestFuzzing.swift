import HTTPServing
import LinkhostKit
import OrderedJSON
import PercentCoding

/// A whole request head and body as a client sends it, read into `HTTPRequest` the way the server
/// gets it from libmicrohttpd (which is not ours and not fuzzed: a NUL cuts the target, header
/// values arrive with their length), then answered in this process by each fixture's server. The
/// request's own reading must be consistent (path and query rebuild the target, the path is the
/// decoded raw path, `Host` normalized) and every answer sane: never a 5xx, header fields that
/// cannot split a response, no raw NUL in a page, JSON where an API answers 200.
enum HTTPRequestFuzzing {
    static let target = FuzzTarget(
        name: "http-request",
        summary: "HTTPRequest target, query and Host reading; each fixture server's in-process answer",
        maximumLength: 4096,
        run: run
    )

    static func run(_ bytes: [UInt8]) {
        let request = read(bytes)
        checkReading(request)
        let server = FuzzFixtures.servers[Int(bytes.first ?? 0) % FuzzFixtures.servers.count]
        let response = server.answer(request)
        FuzzReport.check(
            (200..<500).contains(response.status), "status \(response.status) for \(FuzzReport.shown(request.method)) \(FuzzReport.shown(request.target))")
        for field in response.headers {
            FuzzReport.check(isValidField(field), "an unsafe response header \(FuzzReport.shown(field.name)): \(FuzzReport.shown(field.value))")
        }
        let contentType = response.headers["Content-Type"] ?? ""
        if contentType.hasPrefix("text/html") {
            FuzzReport.check(!response.body.contains(0), "a raw NUL in the page for \(FuzzReport.shown(request.target))")
        }
        if response.status == 200, contentType.hasPrefix("application/json"), !response.body.isEmpty {
            FuzzReport.check(
                (try? JSONParser(duplicateKeys: .reject).parse(response.body)) != nil,
                "a 200 JSON answer that is not JSON for \(FuzzReport.shown(request.target)): \(FuzzReport.shown(response.body))")
        }
    }

    /// `METHOD TARGET VERSION`, header lines, an empty line, the body; lenient like a server's reader.
    static func read(_ bytes: [UInt8]) -> HTTPRequest {
        let input = Array(bytes.dropFirst())
        var headEnd = input.count
        var bodyStart = input.count
        for index in input.indices where input[index] == 0x0A {
            if index + 1 < input.count, input[index + 1] == 0x0A {
                (headEnd, bodyStart) = (index, index + 2)
                break
            }
            if index + 2 < input.count, input[index + 1] == 0x0D, input[index + 2] == 0x0A {
                (headEnd, bodyStart) = (index, index + 3)
                break
            }
        }
        var lines = input[..<headEnd].split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            line.last == 0x0D ? Array(line.dropLast()) : Array(line)
        }
        let requestLine = lines.isEmpty ? [] : lines.removeFirst()
        let parts = requestLine.split(separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: true).map { Array($0) }
        let method = parts.count > 0 ? text(parts[0].prefix { $0 != 0 }) : "GET"
        let target = parts.count > 1 ? text(parts[1].prefix { $0 != 0 }) : "/"
        let version = parts.count > 2 ? text(parts[2].prefix { $0 != 0 }) : "HTTP/1.1"
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
            let value = line[(colon + 1)...].drop { $0 == 0x20 || $0 == 0x09 }
            headers.add(text(line[..<colon]), text(value.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed()))
        }
        return HTTPRequest(
            method: method, target: target.isEmpty ? "/" : target, version: version, headers: headers, clientAddress: "192.0.2.1",
            body: Array(input[bodyStart...]))
    }

    /// What the request made of its target: consistent with the target and with PercentCoding.
    private static func checkReading(_ request: HTTPRequest) {
        if request.target.utf8.first == UInt8(ascii: "/") {
            let rebuilt = request.rawPath + (request.rawQuery.map { "?" + $0 } ?? "")
            FuzzReport.check(rebuilt == request.target, "path and query \(FuzzReport.shown(rebuilt)) do not rebuild \(FuzzReport.shown(request.target))")
        }
        let lowered = request.target.prefix(8).lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            FuzzReport.check(
                request.rawPath.utf8.first == UInt8(ascii: "/"), "raw path \(FuzzReport.shown(request.rawPath)) of \(FuzzReport.shown(request.target))")
        }
        let decoded = PercentCoding.decode(request.rawPath)
        FuzzReport.check(request.path == decoded.text, "path \(FuzzReport.shown(request.path)) is not the decoded \(FuzzReport.shown(request.rawPath))")
        if decoded.isMalformed { FuzzReport.check(request.hasMalformedEncoding, "malformed path not reported: \(FuzzReport.shown(request.rawPath))") }
        let expectedHost = request.headers["Host"].flatMap(HTTPRequest.normalizedHostName)
        FuzzReport.check(
            request.hostName == expectedHost, "host name \(String(describing: request.hostName)) for Host \(String(describing: request.headers["Host"]))")
        if let host = request.hostName {
            FuzzReport.check(!host.isEmpty && host == host.lowercased(), "host name \(FuzzReport.shown(host)) is empty or not lower case")
        }
        for item in request.queryItems {
            FuzzReport.check(request.queryValue(item.name) != nil, "query item \(FuzzReport.shown(item.name)) not found by name")
        }
    }

    private static func text<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String { String(decoding: Array(bytes), as: UTF8.self) }

    /// A token name and a value without CR, LF or NUL (RFC 9110 section 5).
    private static func isValidField(_ field: HTTPHeaders.Field) -> Bool {
        let tokenBytes = Array("!#$%&'*+-.^_`|~".utf8)
        let nameIsToken =
            !field.name.isEmpty
            && field.name.utf8.allSatisfy { PercentCoding.isUnreserved($0) || tokenBytes.contains($0) }
        return nameIsToken && !field.value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
    }
}
