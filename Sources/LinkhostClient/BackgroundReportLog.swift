import Foundation

#if canImport(os)
import os
#endif

/// Where `reportInBackground` writes the failures it swallows: the unified log on Apple platforms
/// (subsystem `linkhost.client`), standard error elsewhere.
enum BackgroundReportLog {
    static func record(_ message: String) {
        #if canImport(os)
        os_log(.error, log: OSLog(subsystem: "linkhost.client", category: "opens"), "%{public}@", message)
        #else
        FileHandle.standardError.write(Data("linkhost client: \(message)\n".utf8))
        #endif
    }
}
