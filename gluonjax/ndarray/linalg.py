"""mx.nd.linalg: operators of the table under the linalg namespace."""
