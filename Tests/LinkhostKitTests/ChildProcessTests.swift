import Foundation
import Glibc
import TestSupport
import Testing

/// The test helper that starts tools and servers: a child gets standard input, output and error
/// and nothing else of the test process, whatever other tests hold open meanwhile.
@Suite("Child processes", .ownThread)
struct ChildProcessTests {
    @Test func aChildInheritsOnlyItsStandardStreams() throws {
        // Opened without close-on-exec, as libcurl opens its sockets.
        let leaky = open("/dev/null", O_RDONLY)
        #expect(leaky > 2)
        defer { close(leaky) }
        let listing = try ChildProcess.run("sh", ["-c", "ls /proc/$$/fd"])
        #expect(listing.status == 0, "\(listing.error)")
        let descriptors = Set(listing.output.split(separator: "\n").compactMap { Int32($0) })
        #expect(descriptors.isSuperset(of: [0, 1, 2]), "\(descriptors)")
        #expect(!descriptors.contains(leaky), "the child holds descriptor \(leaky) of the test process: \(descriptors.sorted())")
    }
}
