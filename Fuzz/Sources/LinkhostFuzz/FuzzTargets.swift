import Glibc

/// Every fuzz target, and the one this process runs.
enum FuzzTargets {
    /// The environment variable that names the target (set by main.swift from the command line).
    static let environmentKey = "LINKHOST_FUZZ_TARGET"

    static let all: [FuzzTarget] = [
        HTTPRequestFuzzing.target,
        PercentCodingFuzzing.target,
        JSONFuzzing.target,
        ReportFuzzing.target,
        AdminQueryFuzzing.target,
        SessionCookieFuzzing.target,
        TimeBoundFuzzing.target,
        UserAgentFuzzing.target,
        RoutingFuzzing.target,
        AASAFuzzing.target,
        AASAMatchFuzzing.target,
        SignedAASAFuzzing.target,
        IDNAFuzzing.target,
        AssetLinksFuzzing.target,
    ]

    static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }

    /// The target named by the environment, looked up once.
    static let selected: FuzzTarget? = getenv(environmentKey).flatMap { named(String(cString: $0)) }
}
