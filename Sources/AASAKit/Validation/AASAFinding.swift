import OrderedJSON

/// One problem found in an AASA file (see `JSONFinding`).
public typealias AASAFinding = JSONFinding<AASAValidationCode>

/// How bad an AASA finding is: an error breaks links or is ignored by iOS; a warning is legal but risky.
public typealias AASASeverity = FindingSeverity
