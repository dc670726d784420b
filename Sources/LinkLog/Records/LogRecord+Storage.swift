import OrderedJSON

extension LogRecord {
    /// Cuts every text to `maximumBytes` of UTF-8 at a character boundary: request fields are
    /// client-controlled, and one client should not be able to bloat the log with huge values. The
    /// writer caps a record once, before both its row and its rollup counts are made from it, so the
    /// two always hold the same values. In place, writing only a text that is too long: nearly every
    /// record is within bounds, and copying each one cost the writer a tenth of its time under load.
    /// Capping twice changes nothing.
    package mutating func capText(to maximumBytes: Int) {
        func cap(_ text: inout String) {
            if text.utf8.count > maximumBytes { text = Self.capped(text, to: maximumBytes) }
        }
        func cap(_ text: inout String?) {
            if let value = text, value.utf8.count > maximumBytes { text = Self.capped(value, to: maximumBytes) }
        }
        cap(&siteID)
        cap(&host)
        cap(&method)
        cap(&path)
        cap(&kind)
        cap(&rule)
        cap(&utmSource)
        cap(&utmMedium)
        cap(&utmCampaign)
        cap(&utmTerm)
        cap(&utmContent)
        cap(&referrer)
        cap(&userAgent)
        cap(&clientClass)
        cap(&clientAddress)
        cap(&event)
        cap(&secretToken)
        // Checked first: writing through the array would copy its storage, which the request's
        // record still shares, even when nothing changes.
        if trackedParameters.contains(where: { $0.name.utf8.count > maximumBytes || $0.value.utf8.count > maximumBytes }) {
            trackedParameters = trackedParameters.map { (Self.capped($0.name, to: maximumBytes), Self.capped($0.value, to: maximumBytes)) }
        }
    }

    /// The `params` column: one JSON object of the names and values in order, the first of each
    /// repeated name kept as `trackedParameters` promises; `nil` for no parameters, so the column
    /// stays NULL rather than holding `{}`. Built by the writer, to keep JSON work off the request path.
    package var parametersJSON: String? {
        guard !trackedParameters.isEmpty else { return nil }
        var members: [JSONMember] = []
        for parameter in trackedParameters where !members.contains(where: { $0.key == parameter.name }) {
            members.append(JSONMember(parameter.name, .string(parameter.value)))
        }
        return JSONValue.object(members).jsonText(.compact)
    }

    /// The values of `HitTable.insertColumns`, in that order.
    package var columnValues: [SQLValue] {
        [
            .integer(timestampMilliseconds), SQLValue(siteID), .text(host), .text(method), .text(path), .text(kind), SQLValue(rule),
            .integer(Int64(status)), .integer(durationMicroseconds), SQLValue(utmSource), SQLValue(utmMedium), SQLValue(utmCampaign),
            SQLValue(utmTerm), SQLValue(utmContent), SQLValue(parametersJSON), SQLValue(referrer), SQLValue(userAgent), SQLValue(clientClass),
            SQLValue(clientAddress), SQLValue(event), SQLValue(secretToken),
        ]
    }

    /// The record whose `columnValues` these are (a spooled row read back). The `params` JSON is read
    /// back into `trackedParameters`; anything unreadable there is left out.
    package init(columnValues values: [SQLValue]) {
        func text(_ index: Int) -> String? { values.indices.contains(index) ? values[index].text : nil }
        func integer(_ index: Int) -> Int64 { values.indices.contains(index) ? values[index].integer ?? 0 : 0 }
        var parameters: [(name: String, value: String)] = []
        if let json = text(14), case .object(let members)? = try? JSONParser().parse(json) {
            parameters = members.compactMap { member in member.value.stringValue.map { (member.key, $0) } }
        }
        self.init(
            timestampMilliseconds: integer(0), siteID: text(1), host: text(2) ?? "", method: text(3) ?? "", path: text(4) ?? "", kind: text(5) ?? "",
            rule: text(6), status: Int(integer(7)), durationMicroseconds: integer(8), utmSource: text(9), utmMedium: text(10), utmCampaign: text(11),
            utmTerm: text(12), utmContent: text(13), trackedParameters: parameters, referrer: text(15), userAgent: text(16), clientClass: text(17),
            clientAddress: text(18), event: text(19), secretToken: text(20))
    }

    private static func capped(_ text: String, to maximumBytes: Int) -> String {
        guard text.utf8.count > maximumBytes else { return text }
        var end = text.utf8.index(text.utf8.startIndex, offsetBy: maximumBytes)
        while end > text.startIndex, end.samePosition(in: text.unicodeScalars) == nil {
            end = text.utf8.index(before: end)
        }
        return String(text[..<end])
    }
}
