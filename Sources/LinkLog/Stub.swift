enum LinkLogStub {}
