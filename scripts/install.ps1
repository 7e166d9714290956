# Installs checkin.exe from a release on Windows: downloads SHA256SUMS and the
# checkin-<version>-win-x64.zip it lists from the release's base URL, refuses the zip unless its
# SHA-256 is the one listed, and puts checkin.exe in %LOCALAPPDATA%\Programs\checkin (or the folder
# given). The same steps as install.sh; winget and Scoop install the same zip.
#
#   $env:CHECKIN_RELEASE_URL = '<base>'; irm <base>/install.ps1 | iex
#   powershell -ExecutionPolicy Bypass -File install.ps1 -Url <base> [-Version 0.1.0] [-Dir <folder>]
#
# Needs: Windows PowerShell 5.1 or PowerShell 7 (Invoke-WebRequest, Get-FileHash, Expand-Archive).
param(
  [string]$Url = $env:CHECKIN_RELEASE_URL,
  [string]$Version = $env:CHECKIN_VERSION,
  [string]$Dir = $env:CHECKIN_INSTALL_DIR
)

# Everything runs from Install-Checkin, called on the last line: a download cut short runs nothing,
# and inside it any failed step stops the install (errors stop; what it refuses, it throws).
function Install-Checkin {
  param([string]$Url, [string]$Version, [string]$Dir)
  Set-StrictMode -Version 3.0
  $ErrorActionPreference = 'Stop'
  $ProgressPreference = 'SilentlyContinue'

  if (-not $Url) { throw 'checkin install: no release URL: pass -Url <base> or set CHECKIN_RELEASE_URL' }
  if (-not $Dir) {
    if (-not $env:LOCALAPPDATA) { throw 'checkin install: LOCALAPPDATA is not set: pass -Dir' }
    $Dir = Join-Path $env:LOCALAPPDATA 'Programs\checkin'
  }
  $Url = $Url.TrimEnd('/')
  # The checksum comes from the same place as the zip: only https (or this machine) keeps both honest.
  if ($Url -notmatch '^https://' -and $Url -notmatch '^http://(127\.0\.0\.1|localhost|\[::1\])([:/]|$)') {
    throw "checkin install: the release URL must be https:// (or this machine's http://127.0.0.1): $Url"
  }
  if (-not [Environment]::Is64BitOperatingSystem) { throw 'checkin install: no 32-bit Windows binary; install with npm: npm install -g checkin-cli' }
  # Windows PowerShell 5.1 may not offer TLS 1.2 unless asked.
  [Net.ServicePointManager]::SecurityProtocol = [Net.ServicePointManager]::SecurityProtocol -bor [Net.SecurityProtocolType]::Tls12

  $tmp = Join-Path ([IO.Path]::GetTempPath()) ('checkin-install.' + [Guid]::NewGuid().ToString('N'))
  New-Item -ItemType Directory -Path $tmp | Out-Null
  try {
    $sums = Join-Path $tmp 'SHA256SUMS'
    try { Invoke-WebRequest -UseBasicParsing -Uri "$Url/SHA256SUMS" -OutFile $sums -MaximumRedirection 10 -TimeoutSec 300 }
    catch { throw "checkin install: could not download $Url/SHA256SUMS: $($_.Exception.Message)" }
    $listed = @{}
    foreach ($line in Get-Content -LiteralPath $sums) {
      if ($line -match '^([0-9a-f]{64})  (checkin-[A-Za-z0-9.+-]+-win-x64\.zip)$') { $listed[$Matches[2]] = $Matches[1] }
    }
    if ($Version) { $name = "checkin-$Version-win-x64.zip" }
    else {
      $name = @($listed.Keys) | Select-Object -First 1
      if (-not $name) { throw "checkin install: $Url/SHA256SUMS lists no checkin zip for win-x64" }
    }
    if (-not $listed.ContainsKey($name)) { throw "checkin install: $Url/SHA256SUMS has no line for $name" }
    $want = $listed[$name]

    $zip = Join-Path $tmp $name
    try { Invoke-WebRequest -UseBasicParsing -Uri "$Url/$name" -OutFile $zip -MaximumRedirection 10 -TimeoutSec 300 }
    catch { throw "checkin install: could not download $Url/${name}: $($_.Exception.Message)" }
    $got = (Get-FileHash -LiteralPath $zip -Algorithm SHA256).Hash.ToLowerInvariant()
    if ($got -ne $want) {
      throw "checkin install: $name is not the file the release lists: its SHA-256 is $got, SHA256SUMS says $want. Nothing was installed."
    }

    $unpacked = Join-Path $tmp 'x'
    Expand-Archive -LiteralPath $zip -DestinationPath $unpacked
    $exe = Join-Path $unpacked 'checkin.exe'
    if (-not (Test-Path -LiteralPath $exe -PathType Leaf)) { throw "checkin install: $name holds no checkin.exe" }
    New-Item -ItemType Directory -Force -Path $Dir | Out-Null
    $target = Join-Path $Dir 'checkin.exe'
    # A running checkin.exe cannot be overwritten, but it can be renamed: the old one steps aside,
    # the new one is copied beside it and renamed into place.
    $new = "$target.new"
    Copy-Item -LiteralPath $exe -Destination $new -Force
    if (Test-Path -LiteralPath $target) { Move-Item -LiteralPath $target -Destination "$target.old" -Force }
    Move-Item -LiteralPath $new -Destination $target -Force
    Remove-Item -LiteralPath "$target.old" -Force -ErrorAction SilentlyContinue
    $said = & $target --version
    Write-Output "checkin $said installed in $target"
    $path = [Environment]::GetEnvironmentVariable('Path', 'User')
    if (-not (($path -split ';') -contains $Dir)) {
      Write-Output "$Dir is not on your PATH: add it (Settings > Environment variables, or: [Environment]::SetEnvironmentVariable('Path', `"$Dir;`" + [Environment]::GetEnvironmentVariable('Path', 'User'), 'User'))"
    }
  }
  finally {
    Remove-Item -LiteralPath $tmp -Recurse -Force -ErrorAction SilentlyContinue
  }
}

Install-Checkin -Url $Url -Version $Version -Dir $Dir
