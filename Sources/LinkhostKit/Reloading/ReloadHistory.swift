import Foundation
import OrderedJSON
import Synchronization

/// The reloads of a running server, for the health report: which configuration serves and since when,
/// how many reloads were applied and refused, and the last one in full (its time, result, error
/// with JSON paths, and settings that need a restart).
final class ReloadHistory: Sendable {
    private struct State {
        var generation = 1
        var servingSince = Date()
        var applied = 0
        var refused = 0
        var last: ReloadOutcome?
    }

    private let state = Mutex(State())

    func record(_ outcome: ReloadOutcome) {
        state.withLock { state in
            state.last = outcome
            if outcome.succeeded {
                state.applied += 1
                state.generation = outcome.generation
                state.servingSince = outcome.at.addingTimeInterval(outcome.durationSeconds)
            } else {
                state.refused += 1
            }
        }
    }

    /// Whether the last reload was refused (the server serves an older config than the file's).
    var lastFailed: Bool { state.withLock { $0.last.map { !$0.succeeded } ?? false } }

    /// The counts, for metrics.
    var summary: ReloadSummary {
        state.withLock { state in
            ReloadSummary(
                generation: state.generation, applied: state.applied, refused: state.refused, lastFailed: state.last.map { !$0.succeeded } ?? false,
                lastAt: state.last?.at)
        }
    }

    var json: JSONValue {
        let state = state.withLock { $0 }
        return .object([
            JSONMember("generation", .number(JSONNumber(state.generation))),
            JSONMember("servingSince", .string(Self.timestamp(state.servingSince))),
            JSONMember("applied", .number(JSONNumber(state.applied))),
            JSONMember("refused", .number(JSONNumber(state.refused))),
            JSONMember("last", state.last.map(Self.json(of:)) ?? .null),
        ])
    }

    private static func json(of outcome: ReloadOutcome) -> JSONValue {
        let problems: [JSONValue] = (outcome.failure?.problems ?? []).map { problem in
            .object([
                JSONMember("path", .string(problem.path.description)),
                JSONMember("code", .string(problem.code)),
                JSONMember("problem", .string(problem.problem)),
                JSONMember("fix", .string(problem.fix)),
            ])
        }
        return .object([
            JSONMember("at", .string(timestamp(outcome.at))),
            JSONMember("result", .string(outcome.succeeded ? "ok" : "failed")),
            JSONMember("durationMs", .number(JSONNumber(Int((outcome.durationSeconds * 1000).rounded())))),
            JSONMember("source", .string(outcome.source)),
            JSONMember("error", outcome.failure.map { .string($0.message) } ?? .null),
            JSONMember("problems", .array(problems)),
            JSONMember("needsRestart", .array(outcome.needsRestart.map { .string($0.path) })),
            JSONMember("changedAASA", .array(outcome.changedAASA.map { .string($0) })),
            JSONMember("linksCheck", outcome.linksCheck?.json ?? .null),
        ])
    }

    /// ISO 8601 in UTC with milliseconds.
    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
