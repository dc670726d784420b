import OrderedJSON

extension JSONPath {
    /// The first `steps` steps of a long path (where a runaway nesting starts), and its text with
    /// `…` and the full depth when cut; a short path is itself.
    func shortened(keeping steps: Int = 4) -> (path: JSONPath, text: String) {
        guard self.steps.count > steps else { return (self, description) }
        let kept = JSONPath(steps: Array(self.steps.prefix(steps)))
        return (kept, "\(kept)… (\(self.steps.count) levels down)")
    }
}
