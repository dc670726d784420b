import OrderedJSON

/// The checks that span sections, run once every section is read and the command line's overrides
/// are in: site ids and hosts are unique, `server.unknownHost` names a site, and the HTTPS port is
/// not the plain-HTTP one.
struct ConfigurationCrossChecks {
    let problems: ConfigurationProblems

    func check(_ configuration: UncheckedConfiguration) {
        checkUniqueness(configuration.sites)
        checkUnknownHost(configuration.server.unknownHost, sites: configuration.sites)
        checkPorts(configuration)
        checkAdminTLS(configuration)
        ACMESectionParser.crossCheck(configuration, problems: problems)
    }

    /// `server.admin.tls` uses the server's certificate, so it needs one.
    private func checkAdminTLS(_ configuration: UncheckedConfiguration) {
        guard configuration.server.admin.tls, configuration.tls == nil else { return }
        problems.add(
            JSONPath.root.appending("server").appending("admin").appending("tls"), "the admin listener is to use HTTPS, but the server has no certificate",
            fix: "add \"tls\" with a certificate and key to the server settings, or set \"tls\": false here")
    }

    /// Sites are named by their index in the file, counting those that had problems of their own.
    private func checkUniqueness(_ sites: [ParsedSite]) {
        var idOwner: [String: Int] = [:]
        var hostOwner: [String: (site: Int, host: Int)] = [:]
        for site in sites {
            if let id = site.id {
                if let first = idOwner[id] {
                    problems.add(site.path.appending("id"), "the id \"\(id)\" is also used by sites[\(first)]", fix: "give every site its own id")
                } else {
                    idOwner[id] = site.index
                }
            }
            for (host, hostIndex) in site.hosts {
                if let owner = hostOwner[host] {
                    problems.add(
                        site.path.appending("hosts").appending(hostIndex), "\"\(host)\" is also listed at sites[\(owner.site)].hosts[\(owner.host)]",
                        fix: "list each host under one site only; one host serves one AASA file")
                } else {
                    hostOwner[host] = (site.index, hostIndex)
                }
            }
        }
    }

    private func checkUnknownHost(_ policy: UnknownHostPolicy, sites: [ParsedSite]) {
        guard case .site(let id) = policy else { return }
        let ids = sites.compactMap(\.id)
        guard !ids.contains(id) else { return }
        let choices = (["\"404\""] + ids.map { "\"\($0)\"" }).joined(separator: ", ")
        problems.add(
            JSONPath.root.appending("server").appending("unknownHost"), "\"\(id)\" is neither \"404\" nor the id of a site", fix: "use one of \(choices)")
    }

    /// Both listeners cannot bind one port; with `tls.http` off there is no plain-HTTP listener.
    private func checkPorts(_ configuration: UncheckedConfiguration) {
        guard let tls = configuration.tls, tls.plainHTTP != .off, tls.port != 0, tls.port == configuration.server.port else { return }
        let httpsOrigin = tls.portFlag ?? "server.tls.port"
        let httpOrigin = configuration.portFlag ?? "server.listen.port"
        problems.add(
            TLSSection.path.appending("port"),
            "the HTTPS port \(tls.port) (\(httpsOrigin)) is also the plain-HTTP port (\(httpOrigin))",
            fix: "give one of them another port, e.g. 8443 for HTTPS and 8080 for plain HTTP")
    }
}
