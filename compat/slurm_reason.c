/* slurm_reason.c - the names of Slurm's job state reasons
 * (slurm_reason.h). */
#include "slurm_reason.h"

#include <stdlib.h>
#include <strings.h>

/* Slurm 22.05's job_reason_num() accepts these, sorted as strcasecmp
 * sorts them, for bsearch. */
static const char *const names[] = {
	"AccountingPolicy", "AccountNotAllowed", "AssocGrpBB", "AssocGrpBBMinutes",
	"AssocGrpBBRunMinutes", "AssocGrpBilling", "AssocGrpBillingMinutes",
	"AssocGrpBillingRunMinutes", "AssocGrpCpuLimit", "AssocGrpCPUMinutesLimit",
	"AssocGrpCPURunMinutesLimit", "AssocGrpEnergy", "AssocGrpEnergyMinutes",
	"AssocGrpEnergyRunMinutes", "AssocGrpGRES", "AssocGrpGRESMinutes",
	"AssocGrpGRESRunMinutes", "AssocGrpJobsLimit", "AssocGrpLicense",
	"AssocGrpLicenseMinutes", "AssocGrpLicenseRunMinutes", "AssocGrpMemLimit",
	"AssocGrpMemMinutes", "AssocGrpMemRunMinutes", "AssocGrpNodeLimit", "AssocGrpNodeMinutes",
	"AssocGrpNodeRunMinutes", "AssocGrpSubmitJobsLimit", "AssocGrpUnknown",
	"AssocGrpUnknownMinutes", "AssocGrpUnknownRunMinutes", "AssocGrpWallLimit",
	"AssociationJobLimit", "AssociationResourceLimit", "AssociationTimeLimit",
	"AssocMaxBBMinutesPerJob", "AssocMaxBBPerJob", "AssocMaxBBPerNode",
	"AssocMaxBillingMinutesPerJob", "AssocMaxBillingPerJob", "AssocMaxBillingPerNode",
	"AssocMaxCpuMinutesPerJobLimit", "AssocMaxCpuPerJobLimit", "AssocMaxCpuPerNode",
	"AssocMaxEnergyMinutesPerJob", "AssocMaxEnergyPerJob", "AssocMaxEnergyPerNode",
	"AssocMaxGRESMinutesPerJob", "AssocMaxGRESPerJob", "AssocMaxGRESPerNode",
	"AssocMaxJobsLimit", "AssocMaxLicenseMinutesPerJob", "AssocMaxLicensePerJob",
	"AssocMaxMemMinutesPerJob", "AssocMaxMemPerJob", "AssocMaxMemPerNode",
	"AssocMaxNodeMinutesPerJob", "AssocMaxNodePerJobLimit", "AssocMaxSubmitJobLimit",
	"AssocMaxUnknownMinutesPerJob", "AssocMaxUnknownPerJob", "AssocMaxUnknownPerNode",
	"AssocMaxWallDurationPerJobLimit", "BadConstraints", "BeginTime", "BlockFreeAction",
	"BlockMaxError", "BurstBufferOperation", "BurstBufferResources", "BurstBufferStageIn",
	"Cleaning", "DeadLine", "Dependency", "DependencyNeverSatisfied", "FedJobLock",
	"FrontEndDown", "InactiveLimit", "InvalidAccount", "InvalidQOS", "JobArrayTaskLimit",
	"JobHeldAdmin", "JobHeldUser", "JobHoldMaxRequeue", "JobLaunchFailure", "Licenses",
	"MaxBBPerAccount", "MaxBillingPerAccount", "MaxCpuPerAccount", "MaxEnergyPerAccount",
	"MaxGRESPerAccount", "MaxJobsPerAccount", "MaxLicensePerAccount", "MaxMemoryPerAccount",
	"MaxMemPerLimit", "MaxNodePerAccount", "MaxSubmitJobsPerAccount", "MaxUnknownPerAccount",
	"NodeDown", "None", "NonZeroExitCode", "OutOfMemory", "PartitionConfig", "PartitionDown",
	"PartitionInactive", "PartitionNodeLimit", "PartitionTimeLimit", "PowerNotAvail",
	"PowerReserved", "Priority", "Prolog", "QOSGrpBB", "QOSGrpBBMinutes",
	"QOSGrpBBRunMinutes", "QOSGrpBilling", "QOSGrpBillingMinutes", "QOSGrpBillingRunMinutes",
	"QOSGrpCpuLimit", "QOSGrpCPUMinutesLimit", "QOSGrpCPURunMinutesLimit", "QOSGrpEnergy",
	"QOSGrpEnergyMinutes", "QOSGrpEnergyRunMinutes", "QOSGrpGRES", "QOSGrpGRESMinutes",
	"QOSGrpGRESRunMinutes", "QOSGrpJobsLimit", "QOSGrpLicense", "QOSGrpLicenseMinutes",
	"QOSGrpLicenseRunMinutes", "QOSGrpMemLimit", "QOSGrpMemoryMinutes",
	"QOSGrpMemoryRunMinutes", "QOSGrpNodeLimit", "QOSGrpNodeMinutes", "QOSGrpNodeRunMinutes",
	"QOSGrpSubmitJobsLimit", "QOSGrpUnknown", "QOSGrpUnknownMinutes",
	"QOSGrpUnknownRunMinutes", "QOSGrpWallLimit", "QOSJobLimit", "QOSMaxBBPerJob",
	"QOSMaxBBPerNode", "QOSMaxBBPerUser", "QOSMaxBillingMinutesPerJob", "QOSMaxBillingPerJob",
	"QOSMaxBillingPerNode", "QOSMaxBillingPerUser", "QOSMaxCpuMinutesPerJobLimit",
	"QOSMaxCpuPerJobLimit", "QOSMaxCpuPerNode", "QOSMaxCpuPerUserLimit",
	"QOSMaxEnergyMinutesPerJob", "QOSMaxEnergyPerJob", "QOSMaxEnergyPerNode",
	"QOSMaxEnergyPerUser", "QOSMaxGRESMinutesPerJob", "QOSMaxGRESPerJob", "QOSMaxGRESPerNode",
	"QOSMaxGRESPerUser", "QOSMaxJobsPerUserLimit", "QOSMaxLicenseMinutesPerJob",
	"QOSMaxLicensePerJob", "QOSMaxLicensePerUser", "QOSMaxMemoryMinutesPerJob",
	"QOSMaxMemoryPerJob", "QOSMaxMemoryPerNode", "QOSMaxMemoryPerUser",
	"QOSMaxNodeMinutesPerJob", "QOSMaxNodePerJobLimit", "QOSMaxNodePerUserLimit",
	"QOSMaxSubmitJobPerUserLimit", "QOSMaxUnknownMinutesPerJob", "QOSMaxUnknownPerJob",
	"QOSMaxUnknownPerNode", "QOSMaxUnknownPerUser", "QOSMaxWallDurationPerJobLimit",
	"QOSMinBB", "QOSMinBilling", "QOSMinCpuNotSatisfied", "QOSMinEnergy", "QOSMinGRES",
	"QOSMinLicense", "QOSMinMemory", "QOSMinNode", "QOSMinUnknown", "QOSNotAllowed",
	"QOSResourceLimit", "QOSTimeLimit", "QOSUsageThreshold", "ReqNodeNotAvail", "Reservation",
	"ReservationDeleted", "Resources", "SystemFailure", "TimeLimit",
};

static int cmp(const void *key, const void *elem)
{
	return strcasecmp(key, *(const char *const *)elem);
}

const char *sl_slurm_reason_name(const char *s)
{
	const char *const *p = bsearch(s, names, sizeof(names) / sizeof(names[0]),
				       sizeof(names[0]), cmp);
	return p ? *p : NULL;
}
