/// Response header fields checked once (see `PreparedResponse.check`) and kept as C strings too, for
/// responses built again and again with the same fields: a page for every new link would otherwise
/// check its dozen fields and copy each name and value into a C string on every request.
package struct CheckedHeaders: Sendable {
    package let fields: HTTPHeaders
    /// Each field's name and value, NUL-terminated, in order.
    let cStrings: [(name: [CChar], value: [CChar])]

    /// Throws when a field has characters not allowed in HTTP (CR, LF, NUL ...).
    package init(_ fields: HTTPHeaders) throws(HTTPServerError) {
        try PreparedResponse.check(fields)
        self.fields = fields
        cStrings = fields.map { (Array($0.name.utf8CString), Array($0.value.utf8CString)) }
    }
}
