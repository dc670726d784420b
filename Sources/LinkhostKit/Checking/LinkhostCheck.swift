import AASAKit
import AssetLinks
import OrderedJSON

/// What `linkhost check` reports: the config's own problems (the agreement between each site's AASA
/// file and its link rules among them), then, for a config that loads, every finding of Apple's
/// format validator on each AASA file actually served and of the assetlinks.json validator on each
/// assetlinks.json served.
public enum LinkhostCheck {
    /// Checks a config file.
    public static func check(configPath: String) -> [CheckFinding] {
        let configuration: LinkhostConfiguration
        do {
            configuration = try ConfigurationLoader.load(path: configPath)
        } catch {
            return error.problems.map { problem in
                CheckFinding(code: problem.code, severity: .error, site: nil, path: problem.path.description, message: problem.problem, fix: problem.fix)
            }
        }
        var findings: [CheckFinding] = []
        for site in configuration.sites {
            let report = AASAValidator().validate(bytes: site.aasa.bytes)
            // A signed `aasa.file` is served as the JSON inside it, which no longer shows the envelope.
            let served = (site.aasa.unwrappedSignature.map { [$0] } ?? []) + report.findings
            // Generated files are checked like any other: the checker knows the one-entry form for
            // iOS 12 and 13+ they use (`AASADetailsEntry.isDualForm`), so it has nothing to say about it.
            for finding in served {
                findings.append(
                    CheckFinding(
                        code: finding.code.rawValue, severity: finding.severity, site: site.id,
                        path: "\(site.aasa.origin == "generated" ? "(generated file)" : site.aasa.origin) \(finding.path)",
                        message: finding.message, fix: finding.fix))
            }
            if let assetLinks = site.assetLinks {
                findings += check(assetLinksBytes: assetLinks.bytes, site: site.id, pathPrefix: "(generated assetlinks.json) ")
            }
        }
        return findings
    }

    /// Checks an assetlinks.json file on its own, or one a site serves (`site`, `pathPrefix`).
    public static func check(assetLinksBytes: [UInt8], site: String? = nil, pathPrefix: String = "") -> [CheckFinding] {
        AssetLinksValidator().validate(bytes: assetLinksBytes).map { finding in
            CheckFinding(
                code: finding.code.rawValue, severity: finding.severity, site: site, path: pathPrefix + finding.path,
                message: finding.message, fix: finding.fix)
        }
    }

    /// Checks an AASA file on its own.
    public static func check(aasaBytes: [UInt8]) -> [CheckFinding] {
        AASAValidator().validate(bytes: aasaBytes).findings.map { finding in
            CheckFinding(
                code: finding.code.rawValue, severity: finding.severity, site: nil, path: finding.path, message: finding.message,
                fix: finding.fix)
        }
    }
}
