import Foundation

/// The ingest key, kept in a wrapper whose every textual form is redacted, so printing, dumping or
/// logging a client (or anything holding the key) never writes the key out.
struct IngestKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The key itself; read only to build the `Authorization` header and to redact text.
    let secret: String

    init(_ secret: String) {
        self.secret = secret
    }

    var description: String { "<redacted>" }
    var debugDescription: String { "<redacted>" }
    var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    /// `text` with every occurrence of the key replaced, for messages built from what a server or
    /// the network stack said (which the client does not control).
    func redact(_ text: String) -> String {
        guard !secret.isEmpty else { return text }
        return text.replacingOccurrences(of: secret, with: "<redacted>")
    }
}
