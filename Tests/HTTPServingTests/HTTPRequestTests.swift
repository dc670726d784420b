import HTTPServing
import Testing

@Suite("Request target decoding")
struct HTTPRequestTests {
    @Test func splitsPathAndQueryAndDecodesBoth() {
        let request = HTTPRequest(method: "GET", target: "/a%20b/c?x=1&y=hello+world&x=2&flag&empty=&z=%26%3D")
        #expect(request.path == "/a b/c")
        #expect(request.rawPath == "/a%20b/c")
        #expect(request.rawQuery == "x=1&y=hello+world&x=2&flag&empty=&z=%26%3D")
        #expect(
            request.queryItems == [
                HTTPQueryItem(name: "x", value: "1"),
                HTTPQueryItem(name: "y", value: "hello world"),
                HTTPQueryItem(name: "x", value: "2"),
                HTTPQueryItem(name: "flag", value: nil),
                HTTPQueryItem(name: "empty", value: ""),
                HTTPQueryItem(name: "z", value: "&="),
            ])
        #expect(request.queryValue("x") == "1")
        #expect(request.queryValue("flag") == "")
        #expect(request.queryValue("missing") == nil)
        #expect(!request.hasMalformedEncoding)
    }

    @Test func plusStaysPlusInPathsAndEncodedPlusStaysPlusInQueries() {
        let request = HTTPRequest(method: "GET", target: "/c++?q=%2B1")
        #expect(request.path == "/c++")
        #expect(request.queryValue("q") == "+1")
    }

    @Test func queryItemsSplitOnTheAmpersandByteEvenBeforeACombiningMark() {
        let request = HTTPRequest(method: "GET", target: "/p?a=1&\u{301}b=2")
        #expect(request.queryItems == [HTTPQueryItem(name: "a", value: "1"), HTTPQueryItem(name: "\u{301}b", value: "2")])
    }

    @Test func brokenEscapesAreKeptAndFlagged() {
        let request = HTTPRequest(method: "GET", target: "/x%zz?code=%E0%A4")
        #expect(request.path == "/x%zz")
        #expect(request.hasMalformedEncoding)
        #expect(request.queryValue("code") == "\u{FFFD}")
    }

    @Test func decodesUnicode() {
        let request = HTTPRequest(method: "GET", target: "/%E5%93%88%E5%93%88?q=caf%C3%A9")
        #expect(request.path == "/哈哈")
        #expect(request.queryValue("q") == "café")
        #expect(!request.hasMalformedEncoding)
    }

    @Test func noQueryMeansNilRawQuery() {
        #expect(HTTPRequest(method: "GET", target: "/p").rawQuery == nil)
        #expect(HTTPRequest(method: "GET", target: "/p?").rawQuery == "")
        #expect(HTTPRequest(method: "GET", target: "/p?").queryItems.isEmpty)
    }

    @Test func absoluteFormTargetsAreReducedToPathAndQuery() {
        let request = HTTPRequest(method: "GET", target: "http://rowhni.com/addfriend?code=A")
        #expect(request.path == "/addfriend")
        #expect(request.queryValue("code") == "A")
        #expect(HTTPRequest(method: "GET", target: "https://rowhni.com").path == "/")
    }

    @Test(arguments: [
        ("Rowhni.COM", "rowhni.com"),
        ("rowhni.com.", "rowhni.com"),
        ("rowhni.com:8080", "rowhni.com"),
        ("ROWHNI.com.:443", "rowhni.com"),
        ("[::1]:8080", "::1"),
        ("127.0.0.1:80", "127.0.0.1"),
    ])
    func normalizesHostNames(raw: String, expected: String) {
        #expect(HTTPRequest.normalizedHostName(raw) == expected)
    }

    @Test func emptyOrBrokenHostsNormalizeToNil() {
        #expect(HTTPRequest.normalizedHostName("") == nil)
        #expect(HTTPRequest.normalizedHostName(":80") == nil)
        #expect(HTTPRequest.normalizedHostName("[::1") == nil)
    }

    @Test func headersAreCaseInsensitiveAndKeepRepeats() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain"]
        headers.add("Vary", "Accept-Language")
        headers.add("vary", "Accept-Encoding")
        #expect(headers["content-type"] == "text/plain")
        #expect(headers["CONTENT-TYPE"] == "text/plain")
        #expect(headers.values(for: "VARY") == ["Accept-Language", "Accept-Encoding"])
        headers.set("Vary", "*")
        #expect(headers.values(for: "vary") == ["*"])
        #expect(headers["missing"] == nil)
    }
}
