import Glibc
import LinkLog
import PercentCoding
import Synchronization

/// The token of one fallback page view (`lh_view`): 16 URL-safe base64 characters (RFC 4648 §5),
/// the time it was made to 1/64 s in the first 6 and 60 random bits in the other 10, nothing
/// derived from the visitor or the request (`ViewTokenSource` says why time leads). The page puts
/// it on every hand-off to the app (the open button's URL, the copied link, Google Play's install
/// referrer, the Android intent link, the desktop QR code); the app reports it back with the open
/// (`POST /v1/opens`), which is then paired with exactly that view — no fingerprint involved.
enum ViewToken {
    /// The query parameter that carries a token.
    static let parameterName = "lh_view"

    /// Characters in a token: 6 of time and 10 random (60 bits).
    static let length = 16

    /// Whether `text` is a token as linkhost writes them: exactly 16 characters of the URL-safe
    /// base64 alphabet. Anything else (too long, padded, another alphabet) is not one and is
    /// ignored for pairing rather than stored.
    static func isWellFormed(_ text: some StringProtocol) -> Bool {
        var count = 0
        for byte in text.utf8 {
            count += 1
            guard count <= length, isAlphabet(byte) else { return false }
        }
        return count == length
    }

    /// Whether the browser that made a request may be a person's, who could take the page's
    /// hand-offs to the app: crawlers, link-preview fetchers and Apple's AASA fetchers never do, so
    /// their pages carry no token (and stay shareable, cached responses).
    static func isIssued(to clientClass: ClientClass) -> Bool {
        switch clientClass {
        case .ios, .android, .desktop, .inAppBrowser, .unknown: true
        case .aasaBot, .appleCFNetwork, .linkPreview, .bot: false
        }
    }

    /// `url` with `lh_view=token` added to its query (before a fragment, if it has one).
    static func adding(_ token: String, to url: String) -> String {
        var text = TextBuilder(capacity: url.utf8.count + itemPrefix.utf8.count + token.utf8.count + 1)
        add(token, to: url, in: &text)
        return text.text
    }

    /// Appends `url` with `lh_view=token` added to its query (see `adding`): a page makes this
    /// string for every view, twice, in the builder its other texts are made in. Over the bytes
    /// (`?`, `&` and `#` are ASCII), searched with `memchr`: walking `String.UTF8View` by its
    /// indices cost several times as much, and a loop testing each byte more than the search.
    static func add(_ token: String, to url: String, in text: inout TextBuilder) {
        url.withContiguousUTF8 { bytes in
            // An empty URL gets the item alone, as it would without `memchr`.
            guard let start = bytes.baseAddress else {
                text.append(ascii: UInt8(ascii: "?"))
                text.append(itemPrefix)
                text.append(token)
                return
            }
            let found = memchr(start, Int32(UInt8(ascii: "#")), bytes.count)
            let hash = found.map { UnsafeRawPointer($0) - UnsafeRawPointer(start) } ?? bytes.count
            let base = UnsafeBufferPointer(rebasing: bytes[..<hash])
            text.append(utf8: base)
            if memchr(start, Int32(UInt8(ascii: "?")), hash) == nil {
                text.append(ascii: UInt8(ascii: "?"))
            } else if let last = base.last, last != UInt8(ascii: "?"), last != UInt8(ascii: "&") {
                text.append(ascii: UInt8(ascii: "&"))
            }
            text.append(itemPrefix)
            text.append(token)
            text.append(utf8: UnsafeBufferPointer(rebasing: bytes[hash...]))
        }
    }

    /// `lh_view=`, what `adding` puts before a token.
    private static let itemPrefix = parameterName + "="

    /// A query split as sent without its `lh_view` items, and the raw query without them (its other
    /// pieces byte for byte as sent). A link copied from a page carries that page's view token,
    /// which belongs to that view and is never part of the link: it routes no rule, is never put
    /// back on a page, and is not logged as the link's query.
    static func removed(from items: [(name: String, value: String)], rawQuery: String?) -> ([(name: String, value: String)], String?) {
        guard items.contains(where: { isParameterName($0.name) }) else { return (items, rawQuery) }
        return (items.filter { !isParameterName($0.name) }, removed(fromRawQuery: rawQuery))
    }

    /// `rawQuery` without its `lh_view` items; `nil` when nothing else is left.
    static func removed(fromRawQuery rawQuery: String?) -> String? {
        guard let rawQuery else { return nil }
        let rest = rawQuery.split(separator: "&", omittingEmptySubsequences: false).filter { !isParameterName(String($0.prefix { $0 != "=" })) }
        return rest.isEmpty || rest == [""] ? nil : rest.joined(separator: "&")
    }

    /// The values of the `lh_view` items of a query as sent, form-decoded.
    static func values(in items: [(name: String, value: String)]) -> [String] {
        items.filter { isParameterName($0.name) }.map { PercentCoding.decode($0.value, plusAsSpace: true).text }
    }

    /// Whether a query item's name as sent is `lh_view` (form-decoded, as every parameter is read).
    static func isParameterName(_ name: String) -> Bool {
        if name == parameterName { return true }
        // Only a name with an escape can decode to it. Looked for in the name's bytes in place: a
        // walk of `String.UTF8View` goes through its index type, for each item of a new link.
        let percent = UInt8(ascii: "%")
        guard name.utf8.count <= 3 * parameterName.utf8.count,
            name.utf8.withContiguousStorageIfAvailable({ $0.contains(percent) }) ?? name.utf8.contains(percent)
        else { return false }
        return PercentCoding.decode(name, plusAsSpace: true).text == parameterName
    }

    /// The token a report names, from the `view` field and the `lh_view` items of its link: the one
    /// value when every place that names one names the same well-formed token; `nil` when none does,
    /// or when they disagree, repeat differently or are malformed (such a report is still accepted,
    /// and logged unpaired).
    static func reported(field: String?, inLink: [String]) -> String? {
        let given = (field.map { [$0] } ?? []) + inLink
        guard let first = given.first, isWellFormed(first), given.allSatisfy({ $0 == first }) else { return nil }
        return first
    }

    private static func isAlphabet(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    /// The URL-safe base64 alphabet (RFC 4648 §5) in the order of its bytes, so that tokens sort
    /// (byte by byte, as SQLite and PostgreSQL compare `view_token`) in the order of their values.
    fileprivate static let alphabet = Array("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".utf8)
}

/// Makes view tokens: the time to 1/64 s, then 60 bits from the kernel's random generator
/// (`/dev/urandom`), read a few kilobytes at a time: a system call per page view would cost more
/// than the rest of the token, and the bytes are as unpredictable held here as anywhere in the
/// process. (`getrandom(2)` is the same generator but is not exposed to Swift by Glibc's module.)
///
/// Time leads because every view's row enters the log's index of view tokens (`hits_view_token`):
/// a wholly random token lands on a random page of that B-tree, which the writer then writes to
/// the WAL and again at the checkpoint — one page a view, the larger part of the writer's time a
/// row (measured in docs/performance.md). Tokens made in the same moment sit side by side, so a
/// batch of views fills a few pages at the index's end. The first 6 characters tell whoever holds
/// the link (a friend it was copied to, too) when its page was viewed, to 1/64 s: decided
/// acceptable, since such a link comes from the person who viewed it, and the token says only when
/// they looked, nothing of who they are or where from. 60 random bits keep a token unguessable:
/// it pairs an open with a view (it grants nothing), and even knowing a view's moment, hitting its
/// token takes ~2^59 guessed reports against the reports' rate limit of 10 a second per client
/// network; two tokens of one 1/64 s are the same about once in 2^61 pairs.
final class ViewTokenSource: Sendable {
    private struct Pool {
        var bytes = [UInt8](repeating: 0, count: 4096)
        var next = 4096
        var device: Int32 = -1
    }

    private let pool = Mutex(Pool())
    /// Milliseconds since the Unix epoch (injected by tests).
    private let clock: @Sendable () -> Int64

    /// The process's source, which every site's pages share (one open device for the process).
    static let shared = ViewTokenSource()

    /// 2025-01-01T00:00:00Z, where the time in tokens starts; 36 bits of 1/64 s last 34 years from
    /// there. After that the time wraps to 0: nothing reads a time out of a token, its order only
    /// keeps the index's writes together, and one wrap in 2059 costs one scattered moment.
    static let epochMilliseconds: Int64 = 1_735_689_600_000

    init(clock: @escaping @Sendable () -> Int64 = LogRecord.currentTimeMilliseconds) {
        self.clock = clock
    }

    deinit {
        pool.withLock { pool in
            if pool.device >= 0 { close(pool.device) }
        }
    }

    /// A fresh token.
    func make() -> String {
        var random: UInt64 = 0
        pool.withLock { pool in
            if pool.next + 8 > pool.bytes.count {
                Self.refill(&pool)
                pool.next = 0
            }
            pool.bytes.withUnsafeBytes { bytes in random = bytes.loadUnaligned(fromByteOffset: pool.next, as: UInt64.self) }
            pool.next += 8
        }
        let time = UInt64(max(0, clock() - Self.epochMilliseconds)) * 64 / 1000
        return String(unsafeUninitializedCapacity: ViewToken.length) { token in
            // 6 characters of time, most significant first, then 10 of 6 random bits each.
            for index in 0..<6 { token[index] = ViewToken.alphabet[Int((time >> UInt64(30 - 6 * index)) & 63)] }
            var bits = random
            for index in 6..<ViewToken.length {
                token[index] = ViewToken.alphabet[Int(bits & 63)]
                bits >>= 6
            }
            return ViewToken.length
        }
    }

    /// Fills the pool from `/dev/urandom`, which never blocks once the kernel's generator was
    /// seeded (early boot) and never runs dry.
    private static func refill(_ pool: inout Pool) {
        if pool.device < 0 { pool.device = open("/dev/urandom", O_RDONLY | O_CLOEXEC) }
        let device = pool.device
        let filled = pool.bytes.withUnsafeMutableBytes { buffer -> Bool in
            var filled = 0
            while device >= 0, filled < buffer.count {
                let count = read(device, buffer.baseAddress! + filled, buffer.count - filled)
                if count > 0 {
                    filled += count
                } else if count == 0 || errno != EINTR {
                    break
                }
            }
            return filled == buffer.count
        }
        // Without the device (a sandbox that hides it), the standard library's generator, which
        // asks the same kernel source a word at a time.
        if !filled {
            var generator = SystemRandomNumberGenerator()
            for index in pool.bytes.indices { pool.bytes[index] = generator.next() }
        }
    }
}
