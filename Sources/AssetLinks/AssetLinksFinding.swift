import OrderedJSON

/// One problem found in an assetlinks.json file (see `JSONFinding`).
public typealias AssetLinksFinding = JSONFinding<AssetLinksValidationCode>

/// How bad an assetlinks.json finding is: an error keeps Android from verifying the app; a warning
/// is legal but risky.
public typealias AssetLinksSeverity = FindingSeverity
