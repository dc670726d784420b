import Testing

@testable import LinkLog

/// `SipHasher`: SipHash-2-4 as its paper defines it, fed a byte at a time.
@Suite("SipHash")
struct SipHasherTests {
    /// The paper's example (appendix A): key 00…0f, message 00…0e.
    @Test func theHashOfThePapersExampleIsThePapers() {
        var hasher = SipHasher(key0: 0x0706_0504_0302_0100, key1: 0x0f0e_0d0c_0b0a_0908)
        for byte in UInt8(0)...14 { hasher.append(byte) }
        #expect(hasher.finalize() == 0xa129_ca61_49be_45e5)
    }

    @Test func fieldsAreMarkedApart() {
        func hash(_ fields: [String?]) -> UInt64 {
            var hasher = SipHasher(key0: 1, key1: 2)
            for field in fields { hasher.append(field: field) }
            return hasher.finalize()
        }
        #expect(hash(["ab", "c"]) != hash(["a", "bc"]))
        #expect(hash([nil, "a"]) != hash(["", "a"]))
        #expect(hash(["a"]) == hash(["a"]))
    }

    /// A form hashed as `LinkForm` writes it equals the hash of the form's text.
    @Test func aFormHashesAsItsText() {
        for (text, isQuery) in [("threadid=734512&pagenumber=12", true), ("/u/123/posts/45", false), ("code=-", true), ("plain", true)] {
            var streamed = SipHasher(key0: 3, key1: 4)
            LinkForm.append(formOf: text, isQuery: isQuery, to: &streamed)
            var written = SipHasher(key0: 3, key1: 4)
            for byte in (isQuery ? LinkForm.query(text) : LinkForm.path(text)).utf8 { written.append(byte) }
            #expect(streamed.finalize() == written.finalize(), "\(text)")
        }
    }
}
