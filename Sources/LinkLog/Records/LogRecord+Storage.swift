import OrderedJSON

extension LogRecord {
    /// The record with every text cut to `maximumBytes` of UTF-8 at a character boundary: request
    /// fields are client-controlled, and one client should not be able to bloat the log with huge
    /// values. The writer caps a record once, before both its row and its rollup counts are made
    /// from it, so the two always hold the same values.
    package func cappingText(to maximumBytes: Int) -> LogRecord {
        func cap(_ text: String?) -> String? { text.map { Self.capped($0, to: maximumBytes) } }
        var record = self
        record.siteID = cap(siteID)
        record.host = Self.capped(host, to: maximumBytes)
        record.method = Self.capped(method, to: maximumBytes)
        record.path = Self.capped(path, to: maximumBytes)
        record.kind = Self.capped(kind, to: maximumBytes)
        record.rule = cap(rule)
        record.utmSource = cap(utmSource)
        record.utmMedium = cap(utmMedium)
        record.utmCampaign = cap(utmCampaign)
        record.utmTerm = cap(utmTerm)
        record.utmContent = cap(utmContent)
        record.trackedParameters = trackedParameters.map { (Self.capped($0.name, to: maximumBytes), Self.capped($0.value, to: maximumBytes)) }
        record.referrer = cap(referrer)
        record.userAgent = cap(userAgent)
        record.clientClass = cap(clientClass)
        record.clientAddress = cap(clientAddress)
        record.event = cap(event)
        record.secretToken = cap(secretToken)
        return record
    }

    /// Whether any text is longer than `maximumBytes` of UTF-8, so `cappingText(to:)` would change
    /// the record. Nearly every record is within bounds, and this check costs no copy of it.
    package func hasText(longerThan maximumBytes: Int) -> Bool {
        func long(_ text: String?) -> Bool { (text?.utf8.count ?? 0) > maximumBytes }
        return long(siteID) || long(host) || long(method) || long(path) || long(kind) || long(rule) || long(utmSource)
            || long(utmMedium) || long(utmCampaign) || long(utmTerm) || long(utmContent) || long(referrer) || long(userAgent)
            || long(clientClass) || long(clientAddress) || long(event) || long(secretToken)
            || trackedParameters.contains { long($0.name) || long($0.value) }
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
