"""mx.nd.sparse: operators of the table under the sparse namespace."""
