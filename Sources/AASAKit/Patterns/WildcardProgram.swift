/// A pattern compiled to a small non-deterministic automaton and run Thompson-style.
///
/// Every state is visited at most once per input scalar, so matching costs at most
/// O(text length × program size) whatever the pattern (`*a*a*a*a*b` included); there is no
/// backtracking and no regular-expression engine.
struct WildcardProgram: Sendable {
    enum Instruction: Sendable {
        case scalar(Unicode.Scalar)
        case scalarClass(ScalarClass)
        case anyScalar
        /// Consumes any scalar and stays put; also falls through to the next instruction.
        case anyRun
        case fork([Int])
        case jump(Int)
        case accept
    }

    let instructions: [Instruction]
    let foldsCase: Bool

    /// Builds the automaton; `nil` when it would exceed `maximumSize` instructions.
    ///
    /// - Parameter optionalTailStart: index of a token from which the rest may be skipped; used for
    ///   the path rule that `/buy/*` also matches `/buy`.
    init?(tokens: [PatternToken], foldsCase: Bool, optionalTailStart: Int?, maximumSize: Int) {
        var code: [Instruction] = []
        var tailFork: Int?
        for (position, token) in tokens.enumerated() {
            if position == optionalTailStart {
                tailFork = code.count
                code.append(.fork([]))
            }
            Self.emit(token, into: &code)
            if code.count > maximumSize { return nil }
        }
        code.append(.accept)
        if let tailFork { code[tailFork] = .fork([tailFork + 1, code.count - 1]) }
        instructions = code
        self.foldsCase = foldsCase
    }

    /// The number of instructions a token list compiles to, without building it.
    static func size(of tokens: [PatternToken]) -> Int {
        tokens.reduce(1) { total, token in
            if case .alternatives(_, let choices) = token {
                return total + 1 + choices.reduce(0) { $0 + $1.count + 1 }
            }
            return total + 1
        }
    }

    private static func emit(_ token: PatternToken, into code: inout [Instruction]) {
        switch token {
        case .scalar(let scalar): code.append(.scalar(scalar))
        case .anyScalar: code.append(.anyScalar)
        case .anyRun: code.append(.anyRun)
        case .scalarClass(let set): code.append(.scalarClass(set))
        case .alternatives(_, let choices):
            let forkIndex = code.count
            code.append(.fork([]))
            var starts: [Int] = []
            var exits: [Int] = []
            for choice in choices {
                starts.append(code.count)
                for inner in choice { emit(inner, into: &code) }
                exits.append(code.count)
                code.append(.jump(0))
            }
            let end = code.count
            for exit in exits { code[exit] = .jump(end) }
            code[forkIndex] = .fork(starts)
        }
    }

    /// Whether the whole of `text` is accepted.
    func matches<Text: Sequence<Unicode.Scalar>>(_ text: Text) -> Bool {
        var current = NFAStateSet(capacity: instructions.count)
        var next = NFAStateSet(capacity: instructions.count)
        var stack: [Int] = []
        addClosure(of: 0, to: &current, stack: &stack)
        for rawScalar in text {
            if current.members.isEmpty { return false }
            let scalar = foldsCase ? CaseFolding.fold(rawScalar) : rawScalar
            next.removeAll()
            for member in current.members {
                let state = Int(member)
                switch instructions[state] {
                case .scalar(let expected):
                    if expected == scalar { addClosure(of: state + 1, to: &next, stack: &stack) }
                case .scalarClass(let set):
                    if set.contains(scalar, foldingCase: foldsCase) { addClosure(of: state + 1, to: &next, stack: &stack) }
                case .anyScalar:
                    addClosure(of: state + 1, to: &next, stack: &stack)
                case .anyRun:
                    addClosure(of: state, to: &next, stack: &stack)
                case .fork, .jump, .accept:
                    break
                }
            }
            swap(&current, &next)
        }
        return current.members.contains { Int($0) == instructions.count - 1 }
    }

    /// Adds `start` and every state reachable from it without consuming input.
    private func addClosure(of start: Int, to set: inout NFAStateSet, stack: inout [Int]) {
        stack.removeAll(keepingCapacity: true)
        stack.append(start)
        while let state = stack.popLast() {
            guard instructions.indices.contains(state), set.insert(state) else { continue }
            switch instructions[state] {
            case .fork(let targets):
                set.dropLast()
                stack.append(contentsOf: targets.reversed())
            case .jump(let target):
                set.dropLast()
                stack.append(target)
            case .anyRun:
                stack.append(state + 1)
            case .scalar, .scalarClass, .anyScalar, .accept:
                break
            }
        }
    }
}
