import OrderedJSON

/// One element of `sites` after reading: what identifies it, kept even when the rest of the site
/// has problems so the checks across sites still run (and name it by its place in the file), and
/// the site itself when it has none.
struct ParsedSite {
    /// Its index in `sites`, counting every element, read or not.
    let index: Int
    /// The id as written, valid or not.
    let id: String?
    /// The valid, normalised hosts, each with its index in `hosts`.
    let hosts: [(host: String, index: Int)]
    let configuration: SiteConfiguration?

    var path: JSONPath { JSONPath.root.appending("sites").appending(index) }
}
