/// Picks a page language from `Accept-Language` (RFC 9110 §12.5.4) among a site's languages.
package enum LanguageNegotiation {
    /// The available language with the highest q-value in `header` (a region tag such as `de-AT`
    /// counts for `de`; `*` stands for any); ties go to the earlier entry; `q=0` means "not this".
    /// With no usable header, `defaultLanguage`.
    package static func choose(_ header: String?, available: [String], defaultLanguage: String) -> String {
        guard let header, !header.isEmpty else { return defaultLanguage }
        var best: (language: String, quality: Double, order: Int)?
        var refused = Set<String>()
        var wildcardQuality: Double?
        for (order, part) in header.split(separator: ",").prefix(50).enumerated() {
            let pieces = part.split(separator: ";")
            guard let tagPart = pieces.first else { continue }
            let tag = tagPart.trimmingCharacters(in: " \t").lowercased()
            var quality = 1.0
            for parameter in pieces.dropFirst() {
                let trimmed = parameter.trimmingCharacters(in: " \t")
                if trimmed.hasPrefix("q=") || trimmed.hasPrefix("Q="), let value = Double(trimmed.dropFirst(2)), value.isFinite {
                    quality = min(max(value, 0), 1)
                }
            }
            if tag == "*" {
                wildcardQuality = quality
                continue
            }
            let primary = String(tag.split(separator: "-").first ?? "")
            guard available.contains(primary) else { continue }
            if quality == 0 {
                refused.insert(primary)
                continue
            }
            if best == nil || quality > best!.quality {
                best = (primary, quality, order)
            }
        }
        if let best, !refused.contains(best.language) { return best.language }
        if let wildcardQuality, wildcardQuality > 0 {
            if !refused.contains(defaultLanguage) { return defaultLanguage }
            if let other = available.first(where: { !refused.contains($0) }) { return other }
        }
        return defaultLanguage
    }
}

extension Substring {
    func trimmingCharacters(in characters: String) -> String {
        String(self).trimmingCharacters(in: characters)
    }
}
