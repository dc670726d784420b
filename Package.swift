// swift-tools-version: 6.0
import PackageDescription

// Every target of ours compiles in the Swift 6 language mode (complete concurrency checking) and
// spells existential types out, so a protocol-typed value is always visibly `any P`.
let strictness: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

// linkhost runs on Linux (and in its Docker image): the server targets call Glibc directly and are
// built and tested on Linux only. The one part meant for Apple platforms is LinkhostClient, the
// library an iOS app embeds to report app opens: Foundation only, no Linux-only API, and the iOS
// entry below is its minimum (URLSession's async API). It claims nothing for the server targets,
// which an app never builds; no macOS entry, as nothing here is built or tested on a Mac.
let package = Package(
    name: "linkhost",
    platforms: [.iOS(.v15)],
    products: [
        .executable(name: "linkhost", targets: ["LinkhostCLI"]),
        .library(name: "LinkhostKit", targets: ["LinkhostKit"]),
        // For apps: report opens to the server and get the link's route back (README, "Reporting
        // app opens").
        .library(name: "LinkhostClient", targets: ["LinkhostClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // C bridges: libmicrohttpd, GnuTLS, SQLite, libpq, libqrencode, zlib and libcurl, each a module map with a shim.h
        // (small non-variadic wrappers where a library needs them; each shim.h says why). Each C library
        // has its own target, and only its one wrapper module imports it.
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        .systemLibrary(
            name: "CGnuTLS",
            pkgConfig: "gnutls",
            providers: [.apt(["libgnutls28-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CPostgreSQL",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .systemLibrary(
            name: "CQRencode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // Percent-decoding, percent-encoding and query splitting: one implementation for the request
        // parser, the link rules, the AASA matcher and the pages.
        .target(name: "PercentCoding", swiftSettings: strictness),
        // The certificates a TLS listener chooses per handshake by SNI, swapped live: the only module
        // that touches GnuTLS (libmicrohttpd's certificate callback hands GnuTLS structures over).
        .target(name: "TLSCertificates", dependencies: ["CGnuTLS"], swiftSettings: strictness),
        // The HTTP server: the only module that touches libmicrohttpd; knows nothing about links.
        .target(
            name: "HTTPServing",
            dependencies: [
                "BlockingThreads",
                "CMicroHTTPD",
                "TLSCertificates",
                "OrderedJSON",
                "PercentCoding",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictness
        ),
        // JSON that keeps key order, finds duplicate keys and says where a syntax error is.
        .target(name: "OrderedJSON", swiftSettings: strictness),
        // Apple's AASA format: lenient parsing of every shape, Apple-exact URL matching, validation.
        .target(
            name: "AASAKit",
            dependencies: ["OrderedJSON", "PercentCoding", .product(name: "SwiftASN1", package: "swift-asn1")],
            swiftSettings: strictness
        ),
        // Android's assetlinks.json (Digital Asset Links): generation, fingerprint and package checks,
        // validation with stable codes.
        .target(name: "AssetLinks", dependencies: ["OrderedJSON"], swiftSettings: strictness),
        // PNG files of black-and-white images: the only module that touches zlib.
        .target(name: "PNGEncoding", dependencies: ["CZlib"], swiftSettings: strictness),
        // QR codes as SVG, PNG and terminal text: the only module that touches libqrencode.
        .target(name: "QRCodes", dependencies: ["CQRencode", "PNGEncoding"], swiftSettings: strictness),
        // Link rules: the ordered rules of a site, which route fallback pages and generate the AASA.
        .target(name: "LinkRules", dependencies: ["OrderedJSON", "PercentCoding"], swiftSettings: strictness),
        // Apple's CDN as devices see it: fetches each host's copy of the AASA file and says how it
        // differs from the file served (`cdn-check`, `server.cdnCheck`). The one server module on
        // URLSession (FoundationNetworking, so libcurl at run time).
        .target(name: "CDNCheck", dependencies: ["AASAKit", "OrderedJSON"], swiftSettings: strictness),
        // SIGTERM/SIGINT (stop) and SIGHUP (reload) for `serve`, caught by a handler that is in force
        // the moment it is installed (libdispatch's signal sources are not; see SignalPipe).
        .target(name: "ProcessSignals", swiftSettings: strictness),
        // Named pthreads for work that blocks (the log writer, checkpoints, the accept loops).
        .target(name: "BlockingThreads", swiftSettings: strictness),
        // The hit log's journal on local disk: records appended by the request threads with `pwrite`,
        // read back in order by the log writer, crash-safe without a sync (store and forward).
        .target(name: "HitJournal", swiftSettings: strictness),
        // The hit log, storage-neutral: records, filters, statistics and the funnel, privacy, client
        // classes, output formats and the background writer, over the `LogDatabase` protocol. It
        // writes its JSON (the params column, the JSON output format) with OrderedJSON, so the
        // project has one JSON writer; OrderedJSON depends on nothing, so this pulls nothing else in.
        .target(
            name: "LinkLog",
            dependencies: [
                "BlockingThreads",
                "HitJournal",
                "OrderedJSON",
                "PercentCoding",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictness
        ),
        // The hit log in a SQLite file: the only module that touches SQLite (a small SQLite layer,
        // the schema and its migrations, the writer's store).
        .target(name: "LinkLogSQLite", dependencies: ["BlockingThreads", "CSQLite", "LinkLog"], swiftSettings: strictness),
        // The hit log in PostgreSQL, for several instances writing into one database: the only
        // module that touches libpq.
        .target(name: "LinkLogPostgreSQL", dependencies: ["CPostgreSQL", "LinkLog"], swiftSettings: strictness),
        // Picks the log's backend from its location, so nothing above the log names one.
        .target(name: "LinkLogDatabases", dependencies: ["LinkLog", "LinkLogSQLite", "LinkLogPostgreSQL"], swiftSettings: strictness),
        // A local certificate authority and host certificates for device testing over HTTPS.
        .target(
            name: "DevCertificates",
            dependencies: [
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictness
        ),
        // HTTPS requests through libcurl, trusting a CA file of the caller's (URLSession on Linux
        // cannot): the only module that touches libcurl.
        .target(name: "CurlHTTP", dependencies: ["CCurl"], swiftSettings: strictness),
        // The ACME client (RFC 8555): account key and JWS, the order flow as a state machine, HTTP-01
        // through a caller's challenge responder, the CSR and the chain; over a transport protocol,
        // so it is tested in-process with a fake server and clock.
        .target(
            name: "ACME",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: strictness
        ),
        // The ACME client's transport over CurlHTTP (the ACME server's HTTPS trusted by a CA file).
        .target(name: "ACMECurl", dependencies: ["ACME", "CurlHTTP"], swiftSettings: strictness),
        // Certificates that get and renew themselves: loads the stored ones, orders missing and
        // expiring ones in the background on a schedule, and hands each to a sink (the TLS listener).
        .target(
            name: "CertificateIssuing",
            dependencies: [
                "ACME", "ACMECurl", "CurlHTTP", "OrderedJSON",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictness
        ),
        // The product: configuration, sites, AASA hosting and request routing.
        .target(
            name: "LinkhostKit",
            dependencies: [
                "ACME",
                "TLSCertificates",
                "HitJournal",
                "HTTPServing",
                "OrderedJSON",
                "AASAKit",
                "AssetLinks",
                "QRCodes",
                "CDNCheck",
                "LinkLog",
                "LinkLogDatabases",
                "LinkRules",
                "PercentCoding",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            swiftSettings: strictness
        ),
        // The admin listener: the log API, the dashboard, Prometheus metrics and the health report of a running server.
        .target(
            name: "LinkhostAdmin",
            dependencies: [
                "CDNCheck",
                "HTTPServing",
                "LinkhostKit",
                "LinkLog",
                "LinkLogDatabases",
                "LinkRules",
                "OrderedJSON",
                "PercentCoding",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strictness
        ),
        // The client an iOS app embeds (`POST /v1/opens`): Foundation only, no package dependency,
        // builds for iOS and Linux (FoundationNetworking there); the tests run it against the
        // built server.
        .target(name: "LinkhostClient", swiftSettings: strictness),
        .executableTarget(
            name: "LinkhostCLI",
            dependencies: [
                "LinkhostKit",
                "LinkhostAdmin",
                "LinkLog",
                "LinkLogDatabases",
                "DevCertificates",
                "ACME",
                "CertificateIssuing",
                "CurlHTTP",
                "QRCodes",
                "CDNCheck",
                "OrderedJSON",
                "ProcessSignals",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictness
        ),
        // Real-socket and in-process HTTP clients, process helpers, waiting on conditions, the QR code reader (zbarimg)
        // and JSON editing shared by the test targets.
        .target(name: "TestSupport", dependencies: ["HTTPServing", "OrderedJSON", "PNGEncoding"], swiftSettings: strictness),
        .testTarget(
            name: "PercentCodingTests",
            dependencies: ["PercentCoding"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "HTTPServingTests",
            dependencies: ["HTTPServing", "TestSupport", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "TLSCertificatesTests",
            dependencies: ["TLSCertificates", "HTTPServing", "DevCertificates", "TestSupport"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "ProcessSignalsTests",
            dependencies: ["ProcessSignals", "TestSupport"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "OrderedJSONTests",
            dependencies: ["OrderedJSON", "TestSupport"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "AASAKitTests",
            dependencies: ["AASAKit", "OrderedJSON", "TestSupport"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "AssetLinksTests",
            dependencies: ["AssetLinks", "OrderedJSON"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "QRCodesTests",
            dependencies: ["QRCodes", "PNGEncoding", "TestSupport"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "LinkRulesTests",
            dependencies: ["LinkRules", "OrderedJSON", "PercentCoding"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "HitJournalTests",
            dependencies: ["HitJournal"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "LinkLogTests",
            dependencies: ["LinkLog", "LinkLogSQLite", "LinkLogPostgreSQL", "LinkLogDatabases", "TestSupport"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "LinkhostKitTests",
            dependencies: [
                "ACME", "LinkhostKit", "LinkLog", "LinkLogSQLite", "LinkLogPostgreSQL", "LinkLogDatabases", "OrderedJSON", "HTTPServing", "TestSupport",
                "AssetLinks", "CDNCheck", "LinkRules", "DevCertificates", "AASAKit",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "LinkhostAdminTests",
            dependencies: ["CDNCheck", "LinkhostAdmin", "LinkhostKit", "LinkLog", "LinkLogSQLite", "HTTPServing", "OrderedJSON", "TestSupport"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "ACMETests",
            dependencies: [
                "ACME", "ACMECurl", "CertificateIssuing", "CurlHTTP", "HTTPServing", "OrderedJSON", "TestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "LinkhostClientTests",
            dependencies: ["LinkhostClient", "TestSupport"],
            swiftSettings: strictness
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The fuzz targets (docs/fuzzing.md): one executable, declared only when LINKHOST_FUZZ=1, so
// `swift build` and `swift test` never see it; `bash scripts/fuzz` sets it and builds into
// .build-fuzz with libFuzzer and AddressSanitizer. Declared in this package so it reaches `package`
// declarations without widening anything to `public`.
if Context.environment["LINKHOST_FUZZ"] == "1" {
    package.targets += [
        .systemLibrary(name: "CLibFuzzer", path: "Fuzz/Sources/CLibFuzzer"),
        .executableTarget(
            name: "LinkhostFuzz",
            dependencies: [
                "CLibFuzzer", "AASAKit", "AssetLinks", "HTTPServing", "LinkhostAdmin", "LinkhostKit", "LinkLog", "LinkRules", "OrderedJSON",
                "PercentCoding", "TestSupport",
            ],
            path: "Fuzz/Sources/LinkhostFuzz",
            swiftSettings: strictness
        ),
    ]
}
