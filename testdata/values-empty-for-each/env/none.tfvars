zones = {}
