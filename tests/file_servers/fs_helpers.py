"""Specs a user would write for file server tests."""

from __future__ import annotations

from batchai_sdk import models as m

PASSWORD = "Fs-Adm1n-Pa55!"
SSH_KEY = "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7 me@host"


def file_server_params(*, disks: int = 2, size: int = 16, caching: str = "readonly",
                       subnet: str | None = None) -> m.FileServerCreateParameters:
    return m.FileServerCreateParameters(
        vm_size="Standard_D14",
        ssh_configuration=m.SshConfiguration(user_account_settings=m.UserAccountSettings(
            admin_user_name="fsadmin", admin_user_password=PASSWORD, admin_user_ssh_public_key=SSH_KEY)),
        data_disks=m.DataDisks(disk_size_in_gb=size, disk_count=disks, storage_account_type="Premium_LRS",
                               caching_type=caching),
        subnet=m.ResourceId(id=subnet) if subnet else None,
    )


def nfs_volumes(file_server_id: str, path: str = "nfs", source: str | None = None) -> m.MountVolumes:
    return m.MountVolumes(file_servers=[m.FileServerReference(
        file_server=m.ResourceId(id=file_server_id), relative_mount_path=path, source_directory=source,
        mount_options="rw")])
