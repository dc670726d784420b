/// Why DER/BER bytes (a CMS envelope) could not be read, for the file's diagnostic.
struct DERError: Error {
    let reason: String
}
