import Glibc

/// Tells a service manager how `serve` is doing, by systemd's readiness protocol: one datagram
/// of `NAME=value` lines to the Unix socket `NOTIFY_SOCKET` names (a leading `@` names an abstract
/// socket). See sd_notify(3) and systemd.service(5), `Type=notify`. Without the variable it does
/// nothing, so `serve` run by hand is unchanged. A datagram that cannot be sent is dropped: the
/// manager's own timeouts then say what went wrong, and serving must not depend on it.
///
/// Debian 12's systemd (252) knows `READY=1`, `RELOADING=1`, `STOPPING=1`, `STATUS=` and
/// `WATCHDOG=1`; `Type=notify-reload` and `MONOTONIC_USEC=` came in 253, so a reload is announced
/// with `RELOADING=1` and ended with `READY=1`.
struct ServiceManagerNotifier: Sendable {
    private let socketPath: [UInt8]?
    /// Half the watchdog interval the manager asked for (`WATCHDOG_USEC`, for this process when
    /// `WATCHDOG_PID` says so): how often `WATCHDOG=1` is sent; `nil` when none was asked for.
    let watchdogInterval: Duration?

    init(environment: [String: String], processIdentifier: Int32 = getpid()) {
        if let path = environment["NOTIFY_SOCKET"], !path.isEmpty, path.hasPrefix("/") || path.hasPrefix("@") {
            var bytes = Array(path.utf8)
            if bytes[0] == UInt8(ascii: "@") { bytes[0] = 0 }
            socketPath = bytes
        } else {
            socketPath = nil
        }
        let forUs = environment["WATCHDOG_PID"].map { Int32($0) == processIdentifier } ?? true
        if forUs, let text = environment["WATCHDOG_USEC"], let microseconds = Int64(text), microseconds > 0, socketPath != nil {
            watchdogInterval = .microseconds(microseconds / 2)
        } else {
            watchdogInterval = nil
        }
    }

    /// Whether a manager listens at all.
    var isActive: Bool { socketPath != nil }

    /// Sends `fields` (`"READY=1"`, `"STATUS=…"`) in one datagram.
    func notify(_ fields: String...) {
        guard let socketPath else { return }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard socketPath.count < capacity else { return }
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            for (index, byte) in socketPath.enumerated() { path[index] = byte }
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let message = Array((fields.joined(separator: "\n") + "\n").utf8)
        // An abstract name is as long as its bytes; a path also counts its terminating NUL.
        let length = MemoryLayout<sa_family_t>.size + socketPath.count + (socketPath[0] == 0 ? 0 : 1)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                message.withUnsafeBytes { bytes in
                    sendto(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), socketAddress, socklen_t(length))
                }
            }
        }
    }
}
