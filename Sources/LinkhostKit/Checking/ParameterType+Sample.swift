import LinkRules

extension ParameterType {
    /// A value of this type, for matching a link whose secret the log keeps only as a hash: the AASA
    /// file needs the link's shape, not the code.
    var sampleValue: String {
        switch self {
        case .id, .page, .flag: "1"
        case .inviteCode: "TEST123"
        case .slug, .text: "a"
        }
    }
}
