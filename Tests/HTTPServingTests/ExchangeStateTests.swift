import HTTPServing
import Testing

/// One request's way through the server, driven step by step as libmicrohttpd's callbacks would
/// drive it, with instants the test chooses: no socket, no clock.
@Suite("An exchange's states")
struct ExchangeStateTests {
    let start = Duration.seconds(1000)
    let limit = 1000

    func feed(_ state: ExchangeState, _ count: Int) -> ExchangeState.BodyStep {
        let bytes = [UInt8](repeating: 0x61, count: count)
        return bytes.withUnsafeBytes { state.bodyChunk($0, limit: limit) }
    }

    @Test func aBodyIsKeptThenAnsweredAndTheExchangeLastsFromHeadToEnd() throws {
        let state = ExchangeState(target: "/v1/opens")
        #expect(!state.hasStarted)
        #expect(state.headArrived(at: start, declaredLength: 10, limit: limit) == .readBody)
        #expect(state.hasStarted)
        #expect(feed(state, 4) == .keepReading)
        #expect(feed(state, 6) == .keepReading)
        #expect(state.bodyEnded() == .respond)
        #expect(state.takeBody().count == 10)
        #expect(state.body.isEmpty, "the body is handed over once")
        state.answered(HTTPRequest(method: "POST", target: "/v1/opens"), status: 200, bodySize: 42, completion: nil)
        #expect(state.phase == .answered)
        // libmicrohttpd calls the handler once more after a response was queued: nothing to do.
        #expect(state.bodyEnded() == .nothing)
        let exchange = try #require(state.ended(.completed, at: start + .milliseconds(3)))
        #expect(exchange.status == 200 && exchange.bodySize == 42 && exchange.outcome == .completed)
        #expect(exchange.durationNanoseconds == 3_000_000)
        #expect(state.phase == .ended)
    }

    @Test func aDeclaredLengthOverTheLimitIsRefusedAtTheHead() {
        let state = ExchangeState(target: "/")
        #expect(state.headArrived(at: start, declaredLength: limit + 1, limit: limit) == .refuseTooLarge)
        #expect(state.hasStarted, "a refused request still counts as in flight until it ends")
        #expect(state.headArrived(at: start, declaredLength: limit, limit: limit) == .readBody)
    }

    @Test func aChunkedBodyOverTheLimitIsDroppedThenRefusedAndARunawayOneIsCut() {
        let state = ExchangeState(target: "/")
        _ = state.headArrived(at: start, declaredLength: nil, limit: limit)
        #expect(feed(state, 900) == .keepReading)
        #expect(feed(state, 200) == .keepReading)
        #expect(state.phase == .discardingBody)
        #expect(state.body.isEmpty, "nothing past the limit is kept")
        #expect(state.bodyEnded() == .refuseTooLarge)

        let runaway = ExchangeState(target: "/")
        _ = runaway.headArrived(at: start, declaredLength: nil, limit: limit)
        let allowance = ExchangeState.discardAllowance(limit: limit)
        #expect(allowance == 4 * 1024 * 1024, "64 times the limit, never less than 4 MiB")
        var step = ExchangeState.BodyStep.keepReading
        var sent = 0
        while step == .keepReading, sent <= allowance + 10_000 {
            step = feed(runaway, 1000)
            sent += 1000
        }
        #expect(step == .closeConnection)
        #expect(sent > allowance && sent <= allowance + 1000)
    }

    @Test func aMalformedHeadIsRefusedBeforeItsBodyOrItsLength() {
        let state = ExchangeState(target: "/")
        #expect(state.headArrived(at: start, declaredLength: limit + 1, limit: limit, fault: .repeatedHost) == .refuseMalformed(.repeatedHost))
        #expect(state.hasStarted)
    }

    @Test func headFaultsFollowRFC9112() {
        #expect(HeadFault.of(version: "HTTP/1.1", hostFields: 1, hiddenBytesInFields: false, requestLineIntact: true) == nil)
        #expect(HeadFault.of(version: "HTTP/1.1", hostFields: 0, hiddenBytesInFields: false, requestLineIntact: true) == .missingHost)
        #expect(HeadFault.of(version: "HTTP/1.0", hostFields: 0, hiddenBytesInFields: false, requestLineIntact: true) == nil)
        #expect(HeadFault.of(version: "HTTP/1.0", hostFields: 2, hiddenBytesInFields: false, requestLineIntact: true) == .repeatedHost)
        #expect(HeadFault.of(version: "HTTP/1.1", hostFields: 1, hiddenBytesInFields: true, requestLineIntact: true) == .hiddenBytesInField)
        #expect(HeadFault.of(version: "HTTP/1.1", hostFields: 2, hiddenBytesInFields: true, requestLineIntact: false) == .malformedRequestLine)
        let framing = { (framing: HeadFault.Framing) in
            HeadFault.of(version: "HTTP/1.1", hostFields: 1, hiddenBytesInFields: false, requestLineIntact: true, framing: framing)
        }
        #expect(framing(HeadFault.Framing(hasLength: true)) == nil)
        #expect(framing(HeadFault.Framing(hasTransferEncoding: true)) == nil)
        #expect(framing(HeadFault.Framing(hasLength: true, conflictingLengths: true)) == .conflictingContentLength)
        #expect(framing(HeadFault.Framing(hasLength: true, hasTransferEncoding: true)) == .contentLengthWithTransferEncoding)
        #expect(framing(HeadFault.Framing(hasLength: true, conflictingLengths: true, bareLineBreak: true)) == .bareLineBreakInField)
    }

    @Test func anExchangeThatWasNeverAnsweredReportsNothing() {
        let state = ExchangeState(target: "/")
        _ = state.headArrived(at: start, declaredLength: nil, limit: limit)
        #expect(state.ended(.clientAborted, at: start + .seconds(1)) == nil)
        #expect(state.phase == .ended)
    }

    /// Why `HTTPServer` leaves SIGPIPE alone (the program sets process-wide signal handling):
    /// libmicrohttpd never raises it from its own writes.
    @Test func libmicrohttpdSuppressesBrokenPipeSignals() {
        #expect(HTTPServer.suppressesBrokenPipeSignals)
    }

    @Test func anEndBeforeTheHeadHasAZeroDurationNeverANegativeOne() throws {
        let state = ExchangeState(target: "/")
        _ = state.headArrived(at: start, declaredLength: nil, limit: limit)
        state.answered(HTTPRequest(method: "HEAD", target: "/"), status: 200, bodySize: 0, completion: nil)
        let exchange = try #require(state.ended(.completed, at: start - .seconds(1)))
        #expect(exchange.durationNanoseconds == 0)
    }
}
