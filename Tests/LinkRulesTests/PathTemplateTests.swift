import LinkRules
import Testing

@Suite("Path templates")
struct PathTemplateTests {
    private func template(_ text: String) throws -> PathTemplate {
        try PathTemplate.parse(text).get()
    }

    @Test func matchesLiteralPathsWithAASASlashRules() throws {
        let addfriend = try template("/addfriend")
        #expect(addfriend.match(rawPath: "/addfriend") == [:])
        #expect(addfriend.match(rawPath: "/addfriend/") == [:])
        #expect(addfriend.match(rawPath: "//addfriend//") == [:])
        #expect(addfriend.match(rawPath: "/addfriends") == nil)
        #expect(addfriend.match(rawPath: "/AddFriend") == nil)
        #expect(addfriend.match(rawPath: "/AddFriend", caseSensitive: false) == [:])
        #expect(addfriend.match(rawPath: "/addfri%65nd") == nil)
        #expect(try template("/").match(rawPath: "") == [:])
        #expect(try template("/").match(rawPath: "/") == [:])
    }

    @Test func placeholdersCaptureOneOrMoreCharactersLikeQuestionStar() throws {
        let member = try template("/familymember/{name}/")
        #expect(member.match(rawPath: "/familymember/dylan/") == ["name": "dylan"])
        #expect(member.match(rawPath: "/familymember/dylan") == ["name": "dylan"])
        #expect(member.match(rawPath: "/familymember/") == nil)
        #expect(member.match(rawPath: "/familymember/a/b") == ["name": "a/b"])
        #expect(member.match(rawPath: "/familymember/The%20Incredibles") == ["name": "The%20Incredibles"])
        #expect(member.aasaPattern == "/familymember/?*")
        let two = try template("/recipes/{id}/steps/{step}")
        #expect(two.match(rawPath: "/recipes/10/steps/3") == ["id": "10", "step": "3"])
        #expect(two.match(rawPath: "/recipes/10/steps/") == nil)
        #expect(two.aasaPattern == "/recipes/?*/steps/?*")
        #expect(try template("/Movie/{name}").match(rawPath: "/movie/Up", caseSensitive: false) == ["name": "Up"])
    }

    @Test(arguments: [
        ("addfriend", "must start with '/'"),
        ("/search?q={q}", "must not contain '?'"),
        ("/recipes/*/", "'*' is not allowed"),
        ("/a/{b", "no matching '}'"),
        ("/a/b}", "no matching '{'"),
        ("/a/{b-c}", "not a valid placeholder"),
        ("/a/{b}{c}", "separated by literal text"),
    ])
    func badTemplatesAreExplained(text: String, reason: String) {
        guard case .failure(let error) = PathTemplate.parse(text) else {
            Issue.record("\(text) parsed")
            return
        }
        #expect(error.reason.contains(reason))
    }

    @Test func expandsPercentEncodingEveryValue() throws {
        let movie = try template("/movie/{name}")
        #expect(movie.expand(["name": "The Incredibles"]) == "/movie/The%20Incredibles")
        #expect(movie.expand(["name": "../../etc/passwd"]) == "/movie/..%2F..%2Fetc%2Fpasswd")
        #expect(movie.expand(["name": "a?b#c&d=e"]) == "/movie/a%3Fb%23c%26d%3De")
        #expect(movie.expand(["name": "哈哈"]) == "/movie/%E5%93%88%E5%93%88")
        #expect(movie.expand([:]) == nil)
        #expect(movie.expand(["name": ""]) == nil)
    }

    /// Matching compares at most (path bytes + 1) × (literal bytes + 1) bytes, whatever the path. A
    /// literal after two placeholders once made it backtrack over every split of the path: the
    /// paths below took tens of millions of steps (seconds per request for a long request line).
    @Test(arguments: [
        ("/f/{owner}/{name}.json", "/f/" + String(repeating: "a/", count: 3000) + "x"),
        ("/f/{owner}/{name}.json", "/f/" + String(repeating: "a/", count: 3000) + ".jso"),
        ("/t/{a}/p/{b}/q/{c}", "/t/" + String(repeating: "/p/", count: 1000) + "/q"),
        ("/{a}-{b}-{c}.x", "/" + String(repeating: "-", count: 2000)),
    ])
    func matchingIsLinearInThePath(text: String, path: String) throws {
        let template = try self.template(text)
        let (captures, steps) = template.matchCountingSteps(rawPath: path)
        #expect(captures == nil)
        #expect(steps <= (path.utf8.count + 1) * (template.literalByteCount + 1), "\(steps) steps for \(path.utf8.count) bytes")
    }

    /// Every path of up to seven pieces over a small alphabet gets the captures of the plain
    /// reading: each placeholder, from the left, takes the fewest bytes (at least one) with which
    /// the rest of the template still matches.
    @Test(arguments: ["/f/{owner}/{name}.json", "/{a}/{b}", "/t/{a}/p/{b}/", "/{a}.{b}.{c}", "/x{a}x{a}x", "/", "/lit"])
    func placeholdersTakeTheFewestBytesFromTheLeft(text: String) throws {
        let template = try self.template(text)
        let alphabet = ["a", "/", ".", "x", ".json", "p"]
        var paths = ["/"]
        var frontier = ["/"]
        for _ in 0..<6 {
            frontier = frontier.flatMap { path in alphabet.map { path + $0 } }
            paths += frontier
        }
        for path in paths {
            #expect(template.match(rawPath: path) == plainMatch(template: text, path: path), "\(path)")
        }
    }

    /// The template's pieces matched by trying every split, the first placeholder shortest first.
    private func plainMatch(template: String, path: String) -> [String: String]? {
        var pieces: [(literal: String?, name: String?)] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest.firstIndex(of: "}") {
            if open > rest.startIndex { pieces.append((String(rest[..<open]), nil)) }
            pieces.append((nil, String(rest[rest.index(after: open)..<close])))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { pieces.append((String(rest), nil)) }
        func trimmed(_ text: String) -> String {
            var text = Substring(text)
            while text.hasPrefix("//") { text = text.dropFirst() }
            while text.count > 1, text.hasSuffix("/") { text = text.dropLast() }
            return text.isEmpty ? "/" : String(text)
        }
        let joined = trimmed(pieces.map { $0.literal ?? "\u{0}" }.joined())
        let normalizedPieces = joined.split(separator: "\u{0}", omittingEmptySubsequences: false)
        let names = pieces.compactMap(\.name)
        func match(_ index: Int, _ text: Substring) -> [String: String]? {
            let literal = normalizedPieces[index]
            guard text.hasPrefix(literal) else { return nil }
            let after = text.dropFirst(literal.count)
            guard index + 1 < normalizedPieces.count else { return after.isEmpty ? [:] : nil }
            let name = names[index]
            guard !after.isEmpty else { return nil }
            for end in after.indices.dropFirst() + [after.endIndex] {
                if var captures = match(index + 1, after[end...]) {
                    captures[name] = String(after[..<end])
                    return captures
                }
            }
            return nil
        }
        return match(0, Substring(trimmed(path)))
    }
}

@Suite("Parameter types")
struct ParameterTypeTests {
    @Test(arguments: [
        (ParameterType.id, "0", true), (.id, "123456789012345678", true), (.id, "1234567890123456789", false), (.id, "12a", false),
        (.id, "-1", false), (.id, "", false), (.id, "４５６", false), (.id, " 1", false),
        (.page, "1", true), (.page, "99999", true), (.page, "0", false), (.page, "100000", false), (.page, "last", true),
        (.page, "unread", true), (.page, "LAST", false), (.page, "01", true),
        (.inviteCode, "TEST123", true), (.inviteCode, "8F3A2B1C", true), (.inviteCode, "abc", false),
        (.inviteCode, String(repeating: "A", count: 33), false), (.inviteCode, "AB CD", false), (.inviteCode, "ÄBCD", false),
        (.inviteCode, "<scr>", false), (.inviteCode, "a-b_c", true),
        (.slug, "dylan", true), (.slug, "the-incredibles", true), (.slug, "a/b", false), (.slug, "Müller", true), (.slug, "a b", false),
        (.text, "The Incredibles", true), (.text, "", false), (.text, "a\u{0}b", false), (.text, "line\nbreak", false),
        (.flag, "1", true), (.flag, "0", true), (.flag, "2", false), (.flag, "true", false),
    ])
    func accepts(type: ParameterType, value: String, accepted: Bool) {
        #expect(type.accepts(value) == accepted)
    }
}

@Suite("App URL templates")
struct AppURLTemplateTests {
    @Test func expandsWithEncodingAndOptionalQueryItems() throws {
        let template = try AppURLTemplate.parse("awful://threads/{threadid}/pages/{pagenumber}?userid={userid}").get()
        #expect(template.scheme == "awful")
        #expect(template.requiredPlaceholders == ["threadid", "pagenumber"])
        #expect(template.expand(["threadid": "456", "pagenumber": "2", "userid": "7"]) == "awful://threads/456/pages/2?userid=7")
        #expect(template.expand(["threadid": "456", "pagenumber": "2"]) == "awful://threads/456/pages/2")
        #expect(template.expand(["threadid": "456", "pagenumber": "2"], extraQuery: [("noseen", "1")]) == "awful://threads/456/pages/2?noseen=1")
        #expect(template.expand(["threadid": "456"]) == nil)
        // A value can neither add path segments nor query items nor a fragment.
        #expect(
            template.expand(["threadid": "1/../../x", "pagenumber": "2?evil=1#f", "userid": "7&admin=1"])
                == "awful://threads/1%2F..%2F..%2Fx/pages/2%3Fevil%3D1%23f?userid=7%26admin%3D1")
    }

    @Test(arguments: ["rowhni:addfriend", "://x", "1abc://x", "app://x#frag", "no scheme"])
    func refusesTemplatesThatAreNotAppURLs(text: String) {
        guard case .failure = AppURLTemplate.parse(text) else {
            Issue.record("\(text) parsed")
            return
        }
    }

}
