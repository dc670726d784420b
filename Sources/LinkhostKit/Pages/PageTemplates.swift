import Foundation
import Mustache

/// The Mustache templates pages are rendered with: `<public>/templates/*.mustache`, with a site's
/// own versions in `<public>/templates/sites/<site id>/` taking precedence, so an operator can
/// restyle one site without touching the others. `{{name}}` escapes for HTML (`& < > " '`), which
/// is safe in text and in double-quoted attributes; templates must quote every attribute.
struct PageTemplates: Sendable {
    /// Templates a page needs; a missing one stops the server at start-up.
    static let requiredTemplates = ["page"]

    private let library: MustacheLibrary

    static func load(folder: String, siteID: String) throws(PageSetupError) -> PageTemplates {
        var library = MustacheLibrary()
        for directory in [folder, (folder as NSString).appendingPathComponent("sites/\(siteID)")] {
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
            for file in files.sorted() where file.hasSuffix(".mustache") {
                let path = (directory as NSString).appendingPathComponent(file)
                guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                    throw PageSetupError("cannot read the template \(path) as UTF-8 text")
                }
                do {
                    try library.register(text, named: String(file.dropLast(".mustache".count)))
                } catch {
                    throw PageSetupError("the template \(path) does not parse: \(error)")
                }
            }
        }
        for name in requiredTemplates where library.getTemplate(named: name) == nil {
            throw PageSetupError("the template \(name).mustache is missing from \(folder)")
        }
        return PageTemplates(library: library)
    }

    private init(library: MustacheLibrary) {
        self.library = library
    }

    /// Renders the page template with `context` (dictionaries, strings, Booleans and arrays).
    func render(_ context: [String: Any]) -> String {
        library.render(context, withTemplate: "page") ?? ""
    }
}
