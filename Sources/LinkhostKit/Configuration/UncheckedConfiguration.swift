/// A config as its file (and then the command line) gives it, before the checks that span
/// sections. Only `checked` makes a `LinkhostConfiguration`, which cannot change afterwards.
struct UncheckedConfiguration {
    /// The server settings; `tls` stays empty until the certificate and key are read.
    var server: ServerSettings
    var tls: TLSSection?
    var log: LogSettings
    /// Every element of `sites` that is an object, in file order.
    var sites: [ParsedSite]
    let baseDirectory: String
    /// The flag that replaced `server.listen.port`, for messages; `nil` when it is the file's.
    var portFlag: String?

    /// The configuration, once every check has passed (each site then has its configuration).
    func checked(tls: TLSSettings?) -> LinkhostConfiguration {
        var server = server
        server.tls = tls
        return LinkhostConfiguration(server: server, sites: sites.compactMap(\.configuration), log: log, baseDirectory: baseDirectory)
    }
}
