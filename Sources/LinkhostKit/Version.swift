/// The release this build is.
public enum LinkhostVersion {
    public static let current = "0.1.0"
}
