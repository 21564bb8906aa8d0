zone_id = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
group_modes = {
  "de677e5818985db1285d0e80225f06e5" = "off"
}
