/// A response together with the responder's own facts about it, which the server carries to the
/// completion observer once the exchange has ended (after the bytes went out or the client left).
public struct AnnotatedResponse<Annotation: Sendable>: Sendable {
    public var response: HTTPResponse
    public var annotation: Annotation

    public init(_ response: HTTPResponse, annotation: Annotation) {
        self.response = response
        self.annotation = annotation
    }
}
