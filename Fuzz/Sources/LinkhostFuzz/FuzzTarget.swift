/// One fuzz target: a name for the command line, the input bound libFuzzer uses for it, and the
/// function that runs one input and traps (through `FuzzReport.fail`) when a property does not hold.
struct FuzzTarget: Sendable {
    let name: String
    /// What it feeds and what it checks, for `linkhost-fuzz list`.
    let summary: String
    /// libFuzzer's `-max_len` for the target: the largest input worth mutating.
    let maximumLength: Int
    /// The CPU time one input may take beyond `WorkBudget.baseMicroseconds`, per input byte.
    let microsecondsPerByte: Int
    let run: @Sendable ([UInt8]) -> Void

    init(name: String, summary: String, maximumLength: Int = 4096, microsecondsPerByte: Int = 25, run: @escaping @Sendable ([UInt8]) -> Void) {
        self.name = name
        self.summary = summary
        self.maximumLength = maximumLength
        self.microsecondsPerByte = microsecondsPerByte
        self.run = run
    }
}
