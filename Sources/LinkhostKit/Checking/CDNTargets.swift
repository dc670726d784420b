import CDNCheck

/// The hosts a CDN check asks about, each with the AASA file the server answers it with.
public enum CDNTargets {
    /// Every host of every site, in config order. Wildcard hosts (`*.example.com`) come back apart:
    /// the CDN keeps a copy per concrete host, so one must be named (`cdn-check --host`).
    public static func all(in configuration: LinkhostConfiguration) -> (targets: [CDNTarget], wildcards: [String]) {
        var targets: [CDNTarget] = []
        var wildcards: [String] = []
        for site in configuration.sites {
            for host in site.hosts {
                if host.hasPrefix("*.") {
                    wildcards.append(host)
                } else {
                    targets.append(CDNTarget(host: host, siteID: site.id, servedBytes: site.aasa.bytes))
                }
            }
        }
        return (targets, wildcards)
    }

    /// The named hosts, answered as the server would answer them (a wildcard's subdomain, or the
    /// `unknownHost` site); a problem in words for a host that is no host name or that no site serves.
    public static func named(_ hosts: [String], in configuration: LinkhostConfiguration) -> Result<[CDNTarget], CDNTargetProblem> {
        var targets: [CDNTarget] = []
        for given in hosts {
            guard let host = HostLookup.normalize(given), !host.contains("*") else {
                return .failure(CDNTargetProblem(description: "\"\(given)\" is not a host name; give one such as rowhni.com"))
            }
            switch HostLookup.site(for: host, in: configuration) {
            case .listed(let site), .fallback(let site):
                if !targets.contains(where: { $0.host == host }) {
                    targets.append(CDNTarget(host: host, siteID: site.id, servedBytes: site.aasa.bytes))
                }
            case .none:
                let known = configuration.sites.flatMap(\.hosts).joined(separator: ", ")
                return .failure(CDNTargetProblem(description: "no site serves \(host) and server.unknownHost is \"404\"; hosts: \(known)"))
            }
        }
        return .success(targets)
    }
}

/// A host `cdn-check` cannot ask about.
public struct CDNTargetProblem: Error, Sendable, CustomStringConvertible {
    public let description: String
}
