enum AASAKitStub {}
