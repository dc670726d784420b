/// A response's facts for the hit log, together with the rules of the serving set that answered,
/// so the row is written with them even if a reload swapped the set meanwhile.
struct ServedHit: Sendable {
    let hit: HitAnnotation
    let logRules: HitLogRules
}
