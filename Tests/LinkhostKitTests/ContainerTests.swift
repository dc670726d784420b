import Foundation
import OrderedJSON
import TestSupport
import Testing

/// The Dockerfile, built unchanged and run, as `docker build` / `docker run -v dir:/data` would.
///
/// It takes minutes (the first build also makes the base images), so it runs on its own:
/// `scripts/test` runs it after the other suites with LINKHOST_CONTAINER_TEST=1.
@Suite("The container image", .serialized, .enabled(if: ProcessInfo.processInfo.environment["LINKHOST_CONTAINER_TEST"] == "1"))
struct ContainerTests {
    static let tag = "linkhost:test"

    /// `container-check`, a stand-in for Docker on machines without a Docker engine (it builds the
    /// Dockerfile with podman and runs the image under chroot; it installs podman, debootstrap and
    /// jq when missing). It is looked for only beside the repository, in `../shared/tools/`.
    static var tool: String? {
        let candidate = ProjectPaths.root + "/../shared/tools/container-check"
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }

    @Test func theImageBuildsAndServesTheAASAAndPagesAndLogsIntoTheMountedData() throws {
        let tool = try #require(Self.tool, "container-check is not installed next to the repository")
        let build = try ChildProcess.run(tool, ["build", "-t", Self.tag, ProjectPaths.root], timeoutSeconds: 3600)
        #expect(build.status == 0, "\(build.output.suffix(3000))\n\(build.error.suffix(3000))")
        guard build.status == 0 else { return }

        let inspect = try JSONParser().parse(try ChildProcess.run(tool, ["inspect", Self.tag]).output)
        #expect(inspect["User"] == "linkhost")
        #expect(inspect["Entrypoint"] == ["linkhost"])
        #expect(inspect["Volumes"]?["/data"] != nil)
        #expect(inspect["ExposedPorts"]?["8080/tcp"] != nil)

        let data = try TemporaryDirectory("linkhost-container-data")
        // The image runs as an unprivileged user; the mounted folder must let it write.
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: data.path)
        let port = try FreePort.find()
        let arguments = ["serve", "--config", "/srv/linkhost/config.json", "--log-db", "/data/linkhost.sqlite", "--port", "\(port)"]
        let container = try ChildProcess(tool, ["run", "-v", "\(data.path):/data", Self.tag] + arguments)
        defer {
            Self.stopServer(in: container)
            _ = container.waitForExit(timeoutSeconds: 30)
        }
        #expect(container.waitForOutput(containing: "listening on ", timeoutSeconds: 60), "\(container.standardError)")

        for host in ["rowhni.com", "forums.somethingawful.com"] {
            let head = try ChildProcess.run("curl", ["-sI", "-H", "Host: \(host)", "http://127.0.0.1:\(port)/.well-known/apple-app-site-association"])
            #expect(head.output.hasPrefix("HTTP/1.1 200"), "\(head.output)")
            #expect(head.output.lowercased().contains("content-type: application/json\r\n"))
        }
        let invite = try ChildProcess.run("curl", ["-s", "-H", "Host: rowhni.com", "http://127.0.0.1:\(port)/addfriend?code=TEST123&utm_source=container"])
        #expect(HTMLProbe(invite.output).attribute("href", ofElementWithID: "open-app") == "rowhni://addfriend?code=TEST123")
        let thread = try ChildProcess.run("curl", ["-s", "-H", "Host: forums.somethingawful.com", "http://127.0.0.1:\(port)/showthread.php?threadid=456"])
        #expect(HTMLProbe(thread.output).attribute("href", ofElementWithID: "open-app") == "awful://threads/456")
        // The image's HEALTHCHECK command, run inside the image.
        let probe = try ChildProcess.run(tool, ["run", Self.tag, "probe", "http://127.0.0.1:\(port)/healthz"], timeoutSeconds: 60)
        #expect(probe.status == 0, "\(probe.error)")
        // URLSession inside the image (libcurl is loaded at run time): a CDN check against a port
        // that refuses connections runs and says so.
        let check = try ChildProcess.run(
            tool,
            [
                "run", Self.tag, "cdn-check", "--config", "/srv/linkhost/config.json", "--host", "rowhni.com", "--cdn-base", "http://127.0.0.1:1", "--timeout",
                "5",
            ],
            timeoutSeconds: 120)
        #expect(check.status == 2, "\(check.error)")
        #expect(check.output.contains("rowhni.com (site rowhni): not checked — cannot connect"), "\(check.output)")

        Self.stopServer(in: container)
        #expect(container.waitForExit(timeoutSeconds: 30) == 0, "\(container.standardError)")
        #expect(container.standardOutput.contains("rows written to /data/linkhost.sqlite, 0 dropped"))
        let files = try FileManager.default.contentsOfDirectory(atPath: data.path)
        #expect(files.contains("linkhost.sqlite"))
        let rows = try ChildProcess.run(
            ProjectPaths.linkhostBinary, ["log", "--db", data.path + "/linkhost.sqlite", "--format", "json", "--utm-source", "container"])
        #expect(try JSONParser().parse(rows.output).arrayElements?.count == 1)
    }

    /// SIGTERM to the server inside the image: container-check runs the image's program under
    /// chroot as its one direct child, so that child's process id is the server's.
    static func stopServer(in container: ChildProcess) {
        for child in ProcessTable.children(of: container.processIdentifier) {
            kill(child, SIGTERM)
        }
    }
}
