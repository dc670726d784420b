/// The function libFuzzer calls with each input; it runs the selected target within its work budget.
///
/// Defined outside main.swift on purpose: a closure there would be inferred `@MainActor` (see the
/// project's notes on C callbacks), and a libFuzzer timeout or a fork-mode child must never depend
/// on which thread calls it.
enum FuzzEntry {
    static let testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt = { data, size in
        guard let target = FuzzTargets.selected else { return 0 }
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        WorkBudget.run(target, bytes)
        return 0
    }
}

/// The standard libFuzzer entry point, for tools that look for it (the driver above calls the same).
@_cdecl("LLVMFuzzerTestOneInput")
public func linkhostFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzEntry.testOneInput(data, size)
}
