import LinkLogDatabases
import OrderedJSON

extension ConfigurationOverrides {
    /// Puts the overrides into the values read from the file, checking each as the file's would be
    /// (problems sit at the JSON path of the setting replaced and name the flag). Paths are taken
    /// from the current folder, as a shell user expects of a flag.
    func apply(to configuration: inout UncheckedConfiguration, problems: ConfigurationProblems) {
        let listen = JSONPath.root.appending("server").appending("listen")
        if let listenAddress {
            if ServerSectionParser.isListenAddress(listenAddress.value) {
                configuration.server.listenAddress = listenAddress.value
            } else {
                problems.add(
                    listen.appending("address"), "\(listenAddress.origin) \"\(listenAddress.value)\" is not an IP address", fix: ServerSectionParser.addressFix)
            }
        }
        if let port {
            if Self.portRange.contains(port.value) {
                configuration.server.port = port.value
                configuration.portFlag = port.origin
            } else {
                problems.add(
                    listen.appending("port"), "\(port.origin) \(port.value) is outside 0...65535", fix: "use a port from 0 to 65535; 0 picks a free one")
            }
        }
        if let adminPort {
            if Self.portRange.contains(adminPort.value) {
                configuration.server.admin.port = adminPort.value
            } else {
                problems.add(
                    JSONPath.root.appending("server").appending("admin").appending("listen").appending("port"),
                    "\(adminPort.origin) \(adminPort.value) is outside 0...65535", fix: "use a port from 0 to 65535; 0 picks a free one")
            }
        }
        applyTLS(to: &configuration, problems: problems)
        if let databasePath {
            if databasePath.value.isEmpty {
                problems.add(
                    JSONPath.root.appending("log").appending("database"), "\(databasePath.origin) is empty",
                    fix: "give the SQLite file's path, e.g. data/linkhost.sqlite")
            } else if LogDatabaseLocator.isURL(databasePath.value) {
                configuration.log.databasePath = databasePath.value
            } else {
                configuration.log.databasePath = PathResolver.currentDirectory.resolve(databasePath.value)
            }
        }
        if let pidFile {
            if pidFile.value.isEmpty {
                problems.add(
                    JSONPath.root.appending("server").appending("pidFile"), "\(pidFile.origin) is empty",
                    fix: "give the file's path, e.g. /run/linkhost.pid")
            } else {
                configuration.server.pidFile = PathResolver.currentDirectory.resolve(pidFile.value)
            }
        }
    }

    private static let portRange = 0...65535

    private func applyTLS(to configuration: inout UncheckedConfiguration, problems: ConfigurationProblems) {
        switch (tlsCertificate, tlsKey) {
        case (let certificate?, let key?):
            var tls = configuration.tls ?? TLSSection()
            tls.certificatePath = PathResolver.currentDirectory.resolve(certificate.value)
            tls.certificateFlag = certificate.origin
            tls.keyPath = PathResolver.currentDirectory.resolve(key.value)
            tls.keyFlag = key.origin
            configuration.tls = tls
        case (let alone?, nil), (nil, let alone?):
            problems.add(TLSSection.path, "\(alone.origin) is given alone", fix: "give the certificate and its private key together, or neither")
        case (nil, nil):
            break
        }
        guard let tlsPort else { return }
        guard var tls = configuration.tls else {
            problems.add(
                TLSSection.path.appending("port"), "\(tlsPort.origin) \(tlsPort.value) needs HTTPS, but there is no certificate",
                fix: "give a certificate and key as well, or add \"tls\" to the server settings")
            return
        }
        guard Self.portRange.contains(tlsPort.value) else {
            problems.add(
                TLSSection.path.appending("port"), "\(tlsPort.origin) \(tlsPort.value) is outside 0...65535",
                fix: "use a port from 0 to 65535; 0 picks a free one")
            return
        }
        tls.port = tlsPort.value
        tls.portFlag = tlsPort.origin
        configuration.tls = tls
    }
}
