import AASAKit
import OrderedJSON

/// What checking one host found: the state, the CDN's answer as far as it matters, and for a
/// copy that differs, how (see `AASAComparison`).
public struct CDNHostCheck: Sendable {
    public let host: String
    public let siteID: String
    /// The URL asked.
    public let url: String
    public let state: CDNHostState
    /// The CDN's HTTP status, `nil` when it gave none (timeout, refused connection).
    public let status: Int?
    /// Whether the CDN's copy has exactly the bytes served (an in-sync copy may be the same JSON
    /// laid out differently).
    public let sameBytes: Bool
    /// `Age` and `Last-Modified` of the CDN's answer, when it sent them.
    public let age: Int?
    public let lastModified: String?
    /// How the CDN's copy differs from the file served (empty unless `differs`).
    public let differences: [AASADifference]
    /// For `missing` and `unchecked`: what went wrong, in words (the CDN's failure reason when given).
    public let problem: String?

    /// Judges the CDN's answer (or the failure to get one) against the file served.
    public init(target: CDNTarget, url: String, answer: Result<CDNAnswer, CDNFetchFailure>) {
        host = target.host
        siteID = target.siteID
        self.url = url
        switch answer {
        case .failure(let failure):
            (state, status, sameBytes, age, lastModified, differences) = (.unchecked, nil, false, nil, nil, [])
            problem = failure.description
        case .success(let answer):
            status = answer.status
            age = answer.age
            lastModified = answer.lastModified
            let judged = Self.judge(answer, served: target.servedBytes)
            (state, sameBytes, differences, problem) = (judged.state, judged.sameBytes, judged.differences, judged.problem)
        }
    }

    private static func judge(_ answer: CDNAnswer, served: [UInt8]) -> (state: CDNHostState, sameBytes: Bool, differences: [AASADifference], problem: String?) {
        switch answer.status {
        case 200:
            break
        // 404 is the CDN's "no copy" (it says so for an origin that failed, with the reason in
        // Apple-Failure-Reason); 410 says the same for good, and 405 was reported for a domain the
        // CDN does not know. Devices get no file in each case.
        case 404, 405, 410:
            let reason = [answer.failureReason, answer.failureDetails].compactMap { $0 }.joined(separator: " — ")
            return (.missing, false, [], "the CDN answered \(answer.status)" + (reason.isEmpty ? "" : ": \(reason)"))
        default:
            let hint = (300..<400).contains(answer.status) ? " (devices treat a redirect from the CDN as a failure)" : ""
            return (.unchecked, false, [], "the CDN answered \(answer.status)\(hint)")
        }
        if answer.body == served { return (.inSync, true, [], nil) }
        let copy: AASADocument
        do {
            copy = try AASADocument(bytes: answer.body)
        } catch {
            return (.unchecked, false, [], "the CDN's copy is not an AASA file: \(error)")
        }
        guard let expected = try? AASADocument(bytes: served) else {
            // linkhost checked the served file at start-up; this cannot happen with a loaded config.
            return (.unchecked, false, [], "the served file cannot be read")
        }
        let comparison = AASAComparison(expected: expected, found: copy)
        return comparison.isEquivalent ? (.inSync, false, [], nil) : (.differs, false, comparison.differences, nil)
    }

    /// The check as JSON (`cdn-check --json`, the health report).
    public var json: JSONValue {
        .object([
            JSONMember("host", .string(host)),
            JSONMember("site", .string(siteID)),
            JSONMember("url", .string(url)),
            JSONMember("state", .string(state.rawValue)),
            JSONMember("status", status.map { .number(JSONNumber($0)) } ?? .null),
            JSONMember("sameBytes", .bool(sameBytes)),
            JSONMember("age", age.map { .number(JSONNumber($0)) } ?? .null),
            JSONMember("lastModified", lastModified.map { .string($0) } ?? .null),
            JSONMember("differences", .array(differences.map(Self.json(of:)))),
            JSONMember("problem", problem.map { .string($0) } ?? .null),
        ])
    }

    private static func json(of difference: AASADifference) -> JSONValue {
        var members = [JSONMember("kind", .string(difference.code))]
        switch difference {
        case .appMissing(let section, let appID), .appUnexpected(let section, let appID):
            members += [JSONMember("section", .string(section)), JSONMember("app", .string(appID))]
        case .rulesMissing(let appID, let rules), .rulesUnexpected(let appID, let rules):
            members += [JSONMember("app", .string(appID)), JSONMember("rules", .array(rules.map { .string($0) }))]
        case .rulesReordered(let appID):
            members.append(JSONMember("app", .string(appID)))
        case .sectionDiffers(let path):
            members.append(JSONMember("path", .string(path)))
        }
        return .object(members)
    }
}
