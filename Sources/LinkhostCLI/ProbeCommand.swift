import ArgumentParser
import Foundation

/// `linkhost probe URL`: GET a plain-HTTP URL and succeed on a 2xx status — the container's
/// HEALTHCHECK, so the runtime image needs no curl.
struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Check that a linkhost answers: GET an http:// URL, exit 0 on a 2xx status."
    )

    @Argument(help: ArgumentHelp("The URL, e.g. http://127.0.0.1:8080/healthz.", valueName: "url"))
    var url: String = "http://127.0.0.1:8080/healthz"

    @Option(name: .long, help: ArgumentHelp("Seconds to wait for the answer.", valueName: "seconds"))
    var timeout: Int = 3

    func run() throws {
        guard let target = ProbeTarget(url) else {
            throw CLIFailure.unusableInput("\"\(url)\" is not an http:// URL with a host, e.g. http://127.0.0.1:8080/healthz")
        }
        switch HealthProbe.get(target, timeoutSeconds: timeout) {
        case .success(let status) where (200..<300).contains(status):
            StandardOutput.write("\(status)\n")
        case .success(let status):
            throw CLIFailure.runtime("\(url) answered \(status)")
        case .failure(let reason):
            throw CLIFailure.runtime("\(url): \(reason)")
        }
    }
}

/// Host, port and path of an `http://` URL.
struct ProbeTarget {
    let host: String
    let port: Int
    let path: String

    init?(_ url: String) {
        guard url.hasPrefix("http://") else { return nil }
        let rest = url.dropFirst(7)
        let authority = rest.prefix { $0 != "/" }
        path = rest.count > authority.count ? String(rest.dropFirst(authority.count)) : "/"
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
            guard let number = Int(authority[authority.index(after: colon)...]), (1...65535).contains(number) else { return nil }
            host = String(authority[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            port = number
        } else {
            host = String(authority).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            port = 80
        }
        guard !host.isEmpty else { return nil }
    }
}
