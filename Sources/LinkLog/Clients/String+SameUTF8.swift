import Glibc

extension String {
    /// Whether both strings hold exactly the same UTF-8 bytes. `==` compares canonical equivalence
    /// (U+212A KELVIN SIGN equals "K"), which is right for text but wrong for a cache of answers that
    /// depend on bytes. One `memcmp` over contiguous storage: it runs on every cache hit.
    package func hasSameUTF8(as other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        let compared = utf8.withContiguousStorageIfAvailable { mine in
            other.utf8.withContiguousStorageIfAvailable { theirs in
                mine.isEmpty || memcmp(mine.baseAddress!, theirs.baseAddress!, mine.count) == 0
            }
        }
        return (compared ?? nil) ?? utf8.elementsEqual(other.utf8)
    }
}
