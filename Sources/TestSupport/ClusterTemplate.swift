import Foundation
import Synchronization

/// The cluster that each `TemporaryPostgreSQL` starts from: `initdb` runs once per test process,
/// and each test's cluster is a copy of its data directory (a fifth of a second instead of seconds
/// of `initdb` on a loaded machine, and a tenth of the processor time). The copies share the
/// template's password, random per process. The template is removed when the process exits.
final class ClusterTemplate: Sendable {
    /// The folder holding the template's data directory (`data`) and password file (`password`).
    let folder: TemporaryDirectory
    let password: String

    /// Makes a template in the given folder and returns its password.
    typealias Make = @Sendable (TemporaryDirectory) throws -> String

    private static let made = Mutex<ClusterTemplate?>(nil)

    private init(folder: TemporaryDirectory, password: String) {
        self.folder = folder
        self.password = password
    }

    /// The process's template, made by `make` the first time.
    static func shared(_ make: Make) throws -> ClusterTemplate {
        try made.withLock { made in
            if let made { return made }
            let folder = try TemporaryDirectory.untilExit("linkhost-postgresql-template")
            let template = ClusterTemplate(folder: folder, password: try make(folder))
            made = template
            return template
        }
    }
}
